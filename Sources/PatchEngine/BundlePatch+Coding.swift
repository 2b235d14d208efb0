import BundleFormat
import FileIntegrity
import Foundation
import TransitSQLite

/// Why a patch file cannot be read.
package struct PatchFormatError: Error, CustomStringConvertible {
    package let description: String
}

extension BundlePatch {
    /// The file's bytes, checksum included.
    package func encoded() -> [UInt8] {
        var w = PackedWriter()
        w.append(contentsOf: Self.magic)
        w.unsigned(Self.formatVersion)
        w.unsigned(schemaVersion)
        Self.write(text: Array(fromHash.utf8), to: &w)
        Self.write(text: Array(toHash.utf8), to: &w)
        for section in sections {
            w.append(contentsOf: [UInt8(ascii: "T")])
            Self.write(text: Array(section.table.utf8), to: &w)
            w.unsigned(section.columns.count)
            for column in section.columns { Self.write(text: Array(column.utf8), to: &w) }
            w.unsigned(section.keyCount)
            w.unsigned(section.operations.count)
            for operation in section.operations {
                switch operation {
                case .delete(let key):
                    w.append(contentsOf: [UInt8(ascii: "D")])
                    for value in key { Self.write(value, to: &w) }
                case .put(let row):
                    w.append(contentsOf: [UInt8(ascii: "P")])
                    for value in row { Self.write(value, to: &w) }
                case .update(let key, let changes):
                    w.append(contentsOf: [UInt8(ascii: "U")])
                    for value in key { Self.write(value, to: &w) }
                    w.unsigned(changes.count)
                    for (column, change) in changes {
                        w.unsigned(column)
                        switch change {
                        case .value(let value):
                            w.append(contentsOf: [UInt8(ascii: "v")])
                            Self.write(value, to: &w)
                        case .edits(let edits):
                            w.append(contentsOf: [UInt8(ascii: "e")])
                            w.unsigned(edits.edits.count)
                            for e in edits.edits {
                                w.unsigned(e.skip)
                                w.unsigned(e.delete)
                                Self.write(text: e.insert, to: &w)
                            }
                        }
                    }
                }
            }
        }
        w.append(contentsOf: [UInt8(ascii: "Z")])
        return Self.sealed(w.bytes)
    }

    /// `body` followed by its checksum: a patch file when `body` is a patch's content.
    package static func sealed(_ body: [UInt8]) -> [UInt8] { body + Array(checksum(body).utf8) }

    /// Reads a patch file, checking its magic, version and checksum first.
    /// - Throws: `PatchFormatError` for a damaged, truncated or foreign file.
    package init(decoding bytes: [UInt8]) throws {
        guard bytes.count >= Self.magic.count + 64, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            throw PatchFormatError(description: "not a bundle patch (no TRNBPATCH header)")
        }
        let body = Array(bytes.dropLast(64))
        guard Self.checksum(body) == String(decoding: bytes.suffix(64), as: UTF8.self) else {
            throw PatchFormatError(description: "the patch is damaged or truncated (its checksum does not match)")
        }
        var r = PackedReader(body)
        do {
            _ = try r.bytes(Self.magic.count)
            let version = try r.unsigned()
            guard version == Self.formatVersion else {
                throw PatchFormatError(description: "patch format \(version); this reader knows \(Self.formatVersion)")
            }
            schemaVersion = try r.unsigned()
            fromHash = String(decoding: try Self.readText(&r), as: UTF8.self)
            toHash = String(decoding: try Self.readText(&r), as: UTF8.self)
            sections = []
            while true {
                let tag = try r.bytes(1).first!
                if tag == UInt8(ascii: "Z") { break }
                guard tag == UInt8(ascii: "T") else { throw PackedReader.Damaged() }
                let table = String(decoding: try Self.readText(&r), as: UTF8.self)
                let columns = try (0..<r.count()).map { _ in String(decoding: try Self.readText(&r), as: UTF8.self) }
                let keyCount = try r.unsigned()
                guard keyCount >= 1, keyCount <= columns.count else { throw PackedReader.Damaged() }
                var operations: [Operation] = []
                for _ in 0..<(try r.count()) {
                    let kind = try r.bytes(1).first!
                    switch kind {
                    case UInt8(ascii: "D"): operations.append(.delete(key: try (0..<keyCount).map { _ in try Self.readValue(&r) }))
                    case UInt8(ascii: "P"): operations.append(.put(row: try columns.map { _ in try Self.readValue(&r) }))
                    case UInt8(ascii: "U"):
                        let key = try (0..<keyCount).map { _ in try Self.readValue(&r) }
                        var changes: [(column: Int, change: Change)] = []
                        for _ in 0..<(try r.count()) {
                            let column = try r.unsigned()
                            guard column < columns.count else { throw PackedReader.Damaged() }
                            switch try r.bytes(1).first! {
                            case UInt8(ascii: "v"): changes.append((column, .value(try Self.readValue(&r))))
                            case UInt8(ascii: "e"):
                                let edits = try (0..<r.count()).map { _ in
                                    ByteEdits.Edit(skip: try r.unsigned(), delete: try r.unsigned(), insert: try Self.readText(&r))
                                }
                                changes.append((column, .edits(ByteEdits(edits))))
                            default: throw PackedReader.Damaged()
                            }
                        }
                        operations.append(.update(key: key, changes: changes))
                    default: throw PackedReader.Damaged()
                    }
                }
                sections.append(Section(table: table, columns: columns, keyCount: keyCount, operations: operations))
            }
            guard r.isAtEnd else { throw PackedReader.Damaged() }
        } catch is PackedReader.Damaged {
            throw PatchFormatError(description: "the patch is damaged (its checksum matches but its contents do not parse)")
        }
    }

    /// The patch's checksum: SHA-256 of `bytes`, as hex.
    private static func checksum(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        bytes.withUnsafeBytes { hash.update($0) }
        return hash.finalizeHex()
    }

    private static func write(text: [UInt8], to w: inout PackedWriter) {
        w.unsigned(text.count)
        w.append(contentsOf: text)
    }

    private static func readText(_ r: inout PackedReader) throws -> [UInt8] { Array(try r.bytes(try r.unsigned())) }

    private static func write(_ value: SQLValue, to w: inout PackedWriter) {
        switch value {
        case .null: w.append(contentsOf: [UInt8(ascii: "n")])
        case .integer(let v):
            w.append(contentsOf: [UInt8(ascii: "i")])
            w.unsigned(Int(bitPattern: UInt(UInt64(bitPattern: (v << 1) ^ (v >> 63)))))
        case .real(let v):
            w.append(contentsOf: [UInt8(ascii: "f")])
            withUnsafeBytes(of: v.bitPattern.bigEndian) { w.append(contentsOf: $0) }
        case .text(let bytes):
            w.append(contentsOf: [UInt8(ascii: "t")])
            write(text: bytes, to: &w)
        case .blob(let bytes):
            w.append(contentsOf: [UInt8(ascii: "b")])
            write(text: bytes, to: &w)
        }
    }

    private static func readValue(_ r: inout PackedReader) throws -> SQLValue {
        switch try r.bytes(1).first! {
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "i"):
            let v = try r.unsigned64()
            return .integer(Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
        case UInt8(ascii: "f"):
            let bytes = try r.bytes(8)
            return .real(Double(bitPattern: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
        case UInt8(ascii: "t"): return .text(try readText(&r))
        case UInt8(ascii: "b"): return .blob(try readText(&r))
        default: throw PackedReader.Damaged()
        }
    }
}

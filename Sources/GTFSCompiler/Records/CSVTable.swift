import BundleFormat

/// One GTFS file opened for reading: its header mapped to column indexes, with
/// helpers that report problems at the current row (file, line, column, field).
/// Its stored properties are unchecked for exclusivity, as its reader's (`CSVReader`).
final class CSVTable {
    let fileName: String
    let feed: String
    let log: DiagnosticLog
    private let reader: CSVReader
    @exclusivity(unchecked) private var columns: [String: Int] = [:]
    @exclusivity(unchecked) private var headerCount = 0
    @exclusivity(unchecked) private(set) var rowCount = 0
    /// Files of the feed that are missing or could not be read (see `unknownReference`).
    let unavailableFiles: Set<String>

    /// Opens `name` from `source`; nil when the feed lacks the file. Throws when a
    /// required column is missing.
    init?(
        _ name: String, in source: FeedSource, feed: String, log: DiagnosticLog, required: [String],
        unavailableFiles: Set<String> = []
    ) throws {
        guard let stream = try source.open(name) else { return nil }
        fileName = name
        self.feed = feed
        self.log = log
        self.unavailableFiles = unavailableFiles
        reader = CSVReader(stream: ReadAheadStream(stream), fileName: name)
        do {
            try readHeader(required: required)
        } catch let fatal as FatalDiagnostic {
            throw fatal.inFeed(feed)
        }
    }

    private func readHeader(required: [String]) throws {
        guard try reader.nextRecord() else {
            log.add(Diagnostic(.emptyFile, feed: feed, file: fileName, line: 1, message: "file is empty: no header row"))
            headerCount = 0
            if !required.isEmpty {
                throw FatalDiagnostic(
                    .missingColumn, feed: feed, file: fileName, line: 1, field: required[0],
                    message: "file is empty, so required column \(required.joined(separator: ", ")) is missing")
            }
            return
        }
        headerCount = reader.fieldCount
        for index in 0..<reader.fieldCount {
            let name = reader.string(index).trimmingSpaces
            if columns[name] != nil {
                log.add(
                    Diagnostic(
                        .duplicateColumn, feed: feed, file: fileName, line: reader.line, column: index + 1,
                        field: name, message: "column appears twice in the header; the first is used"))
            } else {
                columns[name] = index
            }
        }
        // Every missing column is named, not only the first.
        let missing = required.filter { columns[$0] == nil }
        for name in missing.dropLast() {
            log.add(
                Diagnostic(
                    .missingColumn, feed: feed, file: fileName, line: 1, field: name, message: "required column is missing from the header")
            )
        }
        if let last = missing.last {
            throw FatalDiagnostic(
                .missingColumn, feed: feed, file: fileName, line: 1, field: last,
                message: "required column is missing from the header")
        }
    }

    /// The index of a column, or -1 when the header lacks it.
    func column(_ name: String) -> Int { columns[name] ?? -1 }

    var line: Int { reader.line }

    /// The number of rows the whole file likely holds, from the bytes per row so far and the
    /// file's declared size; nil when the size is unknown or nothing was read yet. At most
    /// 50 million: a hint to reserve memory must not let a false size reserve gigabytes.
    var estimatedRowCount: Int? {
        guard let size = reader.declaredSize, rowCount > 0, reader.bytesRead > 0 else { return nil }
        return min(50_000_000, Int(Double(size) / Double(reader.bytesRead) * Double(rowCount) * 1.01) + 16)
    }

    /// Advances to the next data row, reporting rows whose cell count differs from the header.
    func next() throws -> Bool {
        guard headerCount > 0 else { return false }
        do {
            guard try reader.nextRecord() else { return false }
        } catch let fatal as FatalDiagnostic {
            throw fatal.inFeed(feed)
        }
        rowCount += 1
        if reader.droppedNULs > 0 {
            warn(.nulByte, column: reader.firstNULField, message: "\(reader.droppedNULs) NUL byte(s) inside the field; dropped")
        }
        if reader.fieldCount != headerCount {
            warn(.cellCount, column: nil, message: "row has \(reader.fieldCount) cells, the header has \(headerCount)")
        }
        return true
    }

    @inline(__always)
    func bytes(_ column: Int) -> UnsafeBufferPointer<UInt8> { reader.field(column) }

    /// The row's id in `column`, or nil (reported, row to be dropped) when it is empty.
    func requiredID(_ column: Int, _ name: String) -> UnsafeBufferPointer<UInt8>? {
        let key = reader.field(column)
        if key.isEmpty {
            warn(.missingValue, column: column, message: "\(name) is empty; row dropped")
            return nil
        }
        return key
    }

    @inline(__always)
    func isEmpty(_ column: Int) -> Bool { reader.field(column).isEmpty }

    /// The field as a String, nil when empty or absent; past `BundleLimits.maxTextBytes`
    /// it is cut at the start of a character, with a warning.
    func text(_ column: Int) -> String? {
        let field = reader.field(column)
        guard field.count > BundleLimits.maxTextBytes else { return field.isEmpty ? nil : String(decoding: field, as: UTF8.self) }
        var end = BundleLimits.maxTextBytes
        while end > 0, field[end] & 0xC0 == 0x80 { end -= 1 }
        warn(.badValue, column: column, message: "longer than \(BundleLimits.maxTextBytes) bytes; cut there")
        return String(decoding: UnsafeBufferPointer(rebasing: field[0..<end]), as: UTF8.self)
    }

    /// Whether the header has every column of `names`; when one is missing, one warning
    /// says that the whole file is left aside (for optional files, whose absence costs a
    /// feature, not the feed).
    func hasColumns(_ names: [String]) -> Bool {
        guard let missing = names.first(where: { column($0) < 0 }) else { return true }
        log.add(
            Diagnostic(
                .missingValue, feed: feed, file: fileName, line: 1, field: missing,
                message: "the header has no \(missing) column; the file is not used"))
        return false
    }

    /// A warning about the whole file, at its header (line 1), naming `field`.
    func warnFile(_ code: DiagnosticCode, field: String, message: String) {
        log.add(Diagnostic(code, feed: feed, file: fileName, line: 1, field: field, message: message))
    }

    /// Reports a reference to an unknown id, unless a file it could point into is missing or
    /// failed to read: that file's error already explains every such row.
    func unknownReference(column: Int, to files: [String], entity: String? = nil, message: String) {
        guard !files.contains(where: unavailableFiles.contains) else { return }
        warn(.unknownReference, column: column, entity: entity, message: message)
    }

    func warn(_ code: DiagnosticCode, column: Int?, entity: String? = nil, message: String) {
        let name = column.flatMap { c in columns.first { $0.value == c }?.key }
        let value = column.flatMap { text($0) }
        log.add(
            Diagnostic(
                code, feed: feed, file: fileName, line: reader.line, column: column.map { $0 + 1 },
                field: name, entityID: entity, value: value, message: message))
    }

    /// Reads an optional integer field within `range`, warning and using `fallback` when invalid.
    func integer(_ column: Int, in range: ClosedRange<Int>, default fallback: Int, entity: @autoclosure () -> String? = nil) -> Int {
        checkedInteger(column, in: range, entity: entity(), repair: "using \(fallback)") ?? fallback
    }

    /// An optional integer that stays nil when empty or invalid (with a warning).
    func optionalInteger(_ column: Int, in range: ClosedRange<Int>, entity: @autoclosure () -> String? = nil) -> Int? {
        checkedInteger(column, in: range, entity: entity(), repair: "left empty")
    }

    /// The field's integer when it lies in `range`; nil when empty, or invalid (warned, saying `repair`).
    /// `entity` and `repair` are only built for a bad value (calls per stop_times row must not
    /// format them).
    private func checkedInteger(
        _ column: Int, in range: ClosedRange<Int>, entity: @autoclosure () -> String?, repair: @autoclosure () -> String
    ) -> Int? {
        let field = bytes(column)
        if field.isEmpty { return nil }
        if let value = FieldParser.integer(field), range.contains(value) { return value }
        warn(
            .badValue, column: column, entity: entity(),
            message: "expected an integer in \(range.lowerBound)...\(range.upperBound); \(repair())")
        return nil
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}

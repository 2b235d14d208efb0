import BundleFormat
import Foundation
import TransitJSON

/// Reads RFC 4180 CSV from a byte stream, one record at a time, without making
/// Strings: fields are byte ranges into an internal buffer, valid until the next
/// `nextRecord()`. Handles quoted fields (commas, doubled quotes, line breaks),
/// a UTF-8 BOM, CRLF/LF/CR line ends and blank lines. Refuses UTF-16, invalid
/// UTF-8, unclosed quotes and records over `maxRecordBytes`; drops NUL bytes inside
/// fields (counted in `droppedNULs` for the caller to report).
///
/// A reader (and its `FieldBounds`, and the `CSVTable` over it) is used by one thread and
/// never hands out its stored properties `inout`, so the runtime's exclusivity check on
/// each access to them can never fire: `@exclusivity(unchecked)` turns it off (the checks
/// were a large share of a compile's instructions: bench/RESULTS.md).
final class CSVReader {
    static let maxRecordBytes = 1 << 20
    private static let chunk = 1 << 18

    let fileName: String
    private let stream: ByteStream
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var filled = 0
    @exclusivity(unchecked) private var position = 0
    /// Bytes dropped from the front of the buffer so far.
    @exclusivity(unchecked) private var discarded = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var startedFile = false
    /// Physical line where the next record starts (1-based).
    @exclusivity(unchecked) private var nextLine = 1
    /// Line where the current record starts.
    @exclusivity(unchecked) private(set) var line = 0
    /// Field bounds of the current record; raw storage keeps the hot loop free of
    /// exclusivity checks and copy-on-write tests.
    private let fields = FieldBounds()

    init(stream: ByteStream, fileName: String) {
        self.stream = stream
        self.fileName = fileName
        capacity = Self.chunk * 2
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    var fieldCount: Int { fields.count }

    /// Bytes of the file read up to the end of the current record.
    var bytesRead: Int { discarded + position }

    /// The file's size when its stream declares it.
    var declaredSize: Int? { stream.declaredSize }

    /// The bytes of field `index`, trimmed of surrounding spaces; empty when the record is shorter.
    @inline(__always)
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index >= 0, index < fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        var s = fields.starts[index]
        var e = fields.ends[index]
        if !fields.quoted[index] {
            while s < e && (buffer[s] == 0x20 || buffer[s] == 0x09) { s += 1 }
            while e > s && (buffer[e - 1] == 0x20 || buffer[e - 1] == 0x09) { e -= 1 }
        }
        return UnsafeBufferPointer(start: buffer + s, count: e - s)
    }

    /// Field `index` as a String (empty when absent).
    func string(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

    /// NUL bytes removed from the current record's fields, and the first field that had one.
    @exclusivity(unchecked) private(set) var droppedNULs = 0
    @exclusivity(unchecked) private(set) var firstNULField = 0

    private func fail(_ code: FatalCode, _ message: String, line: Int? = nil) -> FatalDiagnostic {
        FatalDiagnostic(code, file: fileName, line: line ?? nextLine, message: message)
    }

    private func fill() throws {
        if position > 0 {
            let keep = filled - position
            if keep > 0 { (buffer).update(from: buffer + position, count: keep) }
            filled = keep
            discarded += position
            position = 0
        }
        if capacity - filled < Self.chunk {
            let newCapacity = capacity * 2
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            bigger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = bigger
            capacity = newCapacity
        }
        // A whole chunk is gathered even from a stream that hands out a few bytes per read:
        // a record that runs past the buffer is parsed again from its start, so the number
        // of fills per record must depend on the record's size, not on the stream's.
        let before = filled
        while filled - before < Self.chunk && filled < capacity {
            let got = try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacity - filled))
            if got == 0 {
                atEnd = true
                break
            }
            filled += got
        }
    }

    private func checkStartOfFile() throws {
        while filled < 3 && !atEnd { try fill() }
        startedFile = true
        if filled >= 2 && ((buffer[0] == 0xFE && buffer[1] == 0xFF) || (buffer[0] == 0xFF && buffer[1] == 0xFE)) {
            throw fail(.notUTF8, "file is UTF-16; GTFS files must be UTF-8", line: 1)
        }
        // A text file starting with a NUL is UTF-16 (or UTF-32) without a byte order mark.
        if filled >= 2 && (buffer[0] == 0 || buffer[1] == 0) {
            throw fail(
                .notUTF8, "file starts with a NUL byte: UTF-16 without a byte order mark, or not text; GTFS files must be UTF-8", line: 1)
        }
        if filled >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { position = 3 }
    }

    /// Moves to the next non-blank record; false at the end of the file.
    func nextRecord() throws -> Bool {
        if !startedFile { try checkStartOfFile() }
        while true {
            guard let parsed = try parseRecord() else { return false }
            if parsed { return true }
        }
    }

    /// Parses one record at `position`: true for a record, false for a blank line, nil at the end.
    /// Whenever the record runs past the buffered bytes, more are read and the record is parsed again.
    private func parseRecord() throws -> Bool? {
        restart: while true {
            if position >= filled {
                if atEnd { return nil }
                try fill()
                continue restart
            }
            fields.removeAll()
            let buffer = self.buffer
            let filled = self.filled
            let atEnd = self.atEnd
            let position = self.position
            let fields = self.fields
            var p = position
            var lines = 0
            var fieldStart = p
            var isQuoted = false
            var hasDoubledQuote = false
            // While every byte of the record is read eight at a time, `highBits` gathers the
            // words (a record without a high bit needs no UTF-8 check) and `sawNUL` says
            // whether a NUL was met; a byte read alone clears `wordsOnly` and both passes run.
            var wordsOnly = true
            var highBits: UInt64 = 0
            var sawNUL = false
            scan: while true {
                if !isQuoted && p + 9 <= filled {
                    // Eight bytes at a time: only bytes below "-" can end a field or start a quote.
                    let word = UnsafeRawPointer(buffer + p).loadUnaligned(as: UInt64.self)
                    highBits |= word
                    var candidates = Self.bytesBelowDash(in: UInt64(littleEndian: word))
                    while candidates != 0 {
                        let q = p + candidates.trailingZeroBitCount >> 3
                        // Tests in order of frequency (a jump table here mispredicts on every field).
                        let byte = buffer[q]
                        if byte == 0x2C {
                            fields.append(fieldStart, q, quoted: false)
                            fieldStart = q + 1
                        } else if byte == 0x0A || byte == 0x0D {
                            fields.append(fieldStart, q, quoted: false)
                            let ascii = wordsOnly && highBits & 0x8080_8080_8080_8080 == 0
                            return try finishRecord(
                                end: q, next: lineEnd(q), lines: lines + 1, ascii: ascii, noNUL: wordsOnly && !sawNUL)
                        } else if byte == 0x22 && q == fieldStart {
                            isQuoted = true
                            p = q + 1
                            continue scan
                        } else if byte == 0 {
                            sawNUL = true
                        }
                        candidates &= candidates - 1
                    }
                    p += 8
                    continue
                }
                wordsOnly = false
                // Two bytes of look-ahead (a doubled quote, CR LF) must be in the buffer unless the file ends.
                if p + 1 >= filled && !atEnd {
                    if p - position > Self.maxRecordBytes { throw fail(.lineTooLong, "record longer than 1 MB") }
                    try fill()
                    continue restart
                }
                if p >= filled {
                    if isQuoted { throw fail(.brokenCSV, "quoted field is not closed before the end of the file") }
                    fields.append(fieldStart, p, quoted: false)
                    return try finishRecord(end: p, next: p, lines: lines)
                }
                let byte = buffer[p]
                if isQuoted {
                    if byte == 0x22 {
                        if p + 1 < filled && buffer[p + 1] == 0x22 {
                            hasDoubledQuote = true
                            p += 2
                            continue
                        }
                        // The closing quote; bytes between it and the delimiter are ignored.
                        fields.append(fieldStart + 1, p, quoted: true, doubledQuotes: hasDoubledQuote)
                        isQuoted = false
                        hasDoubledQuote = false
                        p += 1
                        while p < filled && buffer[p] != 0x2C && buffer[p] != 0x0A && buffer[p] != 0x0D { p += 1 }
                        if p + 1 >= filled && !atEnd {
                            try fill()
                            continue restart
                        }
                        if p >= filled { return try finishRecord(end: p, next: p, lines: lines) }
                        if buffer[p] == 0x2C {
                            p += 1
                            fieldStart = p
                            if p >= filled {
                                fields.append(p, p, quoted: false)
                                return try finishRecord(end: p, next: p, lines: lines)
                            }
                            continue
                        }
                        return try finishRecord(end: p, next: lineEnd(p), lines: lines + 1)
                    }
                    if byte == 0x0A { lines += 1 }
                    p += 1
                    continue
                }
                switch byte {
                case 0x2C:
                    fields.append(fieldStart, p, quoted: false)
                    p += 1
                    fieldStart = p
                case 0x0A, 0x0D:
                    fields.append(fieldStart, p, quoted: false)
                    return try finishRecord(end: p, next: lineEnd(p), lines: lines + 1)
                case 0x22 where p == fieldStart:
                    isQuoted = true
                    p += 1
                default:
                    p += 1
                }
            }
        }
    }

    /// The high bit of every byte of `word` (first byte lowest) below 0x2D ("-"): commas,
    /// quotes, line ends and NULs among them. Exact: each byte is compared on its own, with
    /// no carry between bytes, and bytes of 0x80 and above are left out.
    @inline(__always)
    private static func bytesBelowDash(in word: UInt64) -> UInt64 {
        ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x5353_5353_5353_5353) | word) & 0x8080_8080_8080_8080
    }

    /// The position after the line break at `p` (LF, CR LF or CR).
    private func lineEnd(_ p: Int) -> Int {
        buffer[p] == 0x0D && p + 1 < filled && buffer[p + 1] == 0x0A ? p + 2 : p + 1
    }

    /// Ends the record at `end`. `ascii` and `noNUL` say what the eight-byte scan already
    /// knows of the record's bytes, sparing the UTF-8 check or the NUL search.
    private func finishRecord(end: Int, next: Int, lines: Int, ascii: Bool = false, noNUL: Bool = false) throws -> Bool {
        let start = position
        line = nextLine
        nextLine += lines
        position = next
        if end - start > Self.maxRecordBytes { throw fail(.lineTooLong, "record longer than 1 MB", line: line) }
        if !ascii && !UTF8Check.isValid(buffer + start, end - start) {
            throw fail(.notUTF8, "invalid UTF-8 byte sequence", line: line)
        }
        droppedNULs = 0
        if !noNUL && memchr(buffer + start, 0, end - start) != nil { dropNULs() }
        if fields.hasDoubledQuotes {
            for index in 0..<fields.count where fields.doubled[index] { collapseDoubledQuotes(index) }
        }
        // A blank line is one empty, unquoted field.
        return !(fields.count == 1 && fields.starts[0] == fields.ends[0] && !fields.quoted[0])
    }

    /// Removes NUL bytes from every field of the record, counting them.
    private func dropNULs() {
        for index in (0..<fields.count).reversed() {
            var read = fields.starts[index]
            var write = read
            let end = fields.ends[index]
            while read < end {
                if buffer[read] == 0 {
                    droppedNULs += 1
                    firstNULField = index
                } else {
                    buffer[write] = buffer[read]
                    write += 1
                }
                read += 1
            }
            fields.ends[index] = write
        }
    }

    private func collapseDoubledQuotes(_ index: Int) {
        var read = fields.starts[index]
        var write = fields.starts[index]
        let end = fields.ends[index]
        while read < end {
            buffer[write] = buffer[read]
            read += (buffer[read] == 0x22 && read + 1 < end && buffer[read + 1] == 0x22) ? 2 : 1
            write += 1
        }
        fields.ends[index] = write
    }
}

/// Start and end offsets of a record's fields, in manually managed storage (unchecked
/// for exclusivity: see `CSVReader`).
final class FieldBounds {
    @exclusivity(unchecked) private(set) var starts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private(set) var ends: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private(set) var quoted: UnsafeMutablePointer<Bool>
    @exclusivity(unchecked) private(set) var doubled: UnsafeMutablePointer<Bool>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var hasDoubledQuotes = false
    @exclusivity(unchecked) private var capacity = 64

    init() {
        starts = .allocate(capacity: capacity)
        ends = .allocate(capacity: capacity)
        quoted = .allocate(capacity: capacity)
        doubled = .allocate(capacity: capacity)
    }

    deinit {
        starts.deallocate()
        ends.deallocate()
        quoted.deallocate()
        doubled.deallocate()
    }

    func removeAll() {
        count = 0
        hasDoubledQuotes = false
    }

    @inline(__always)
    func append(_ start: Int, _ end: Int, quoted isQuoted: Bool, doubledQuotes: Bool = false) {
        if count == capacity { grow() }
        starts[count] = start
        ends[count] = end
        quoted[count] = isQuoted
        doubled[count] = doubledQuotes
        hasDoubledQuotes = hasDoubledQuotes || doubledQuotes
        count += 1
    }

    private func grow() {
        let newCapacity = capacity * 2
        func moved<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            let new = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
            new.moveInitialize(from: old, count: capacity)
            old.deallocate()
            return new
        }
        starts = moved(starts)
        ends = moved(ends)
        quoted = moved(quoted)
        doubled = moved(doubled)
        capacity = newCapacity
    }
}

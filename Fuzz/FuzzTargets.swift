import BundleFormat
import Foundation
import PatchEngine
// libFuzzer entry point for the compiler's input readers. Built by `make fuzz` together
// with the GTFSCompiler sources as one module (so the readers' internal API is reachable);
// FUZZ_TARGET chooses what the input feeds: csv, zip, fields, json, packed (the bundle's
// packed columns, as a damaged bundle would hand them to the runtime) or patch
// (PatchFuzzTarget.swift).
import TransitJSON

private let target = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "csv"
private let scratch = NSTemporaryDirectory() + "gtfs-fuzz-\(getpid()).zip"

/// Hands out bytes in chunks whose size comes from the input, to exercise chunk boundaries.
private final class ChunkedStream: ByteStream {
    let bytes: [UInt8]
    let step: Int
    var at = 0
    init(_ bytes: [UInt8], step: Int) {
        self.bytes = bytes
        self.step = max(1, step)
    }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(step, buffer.count, bytes.count - at)
        for i in 0..<n { buffer[i] = bytes[at + i] }
        at += n
        return n
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case "zip": fuzzZip(bytes)
    case "fields": fuzzFields(bytes)
    case "json": _ = try? JSONParser.parse(bytes)
    case "packed": fuzzPacked(bytes)
    case "patch": fuzzPatch(bytes)
    default: fuzzCSV(bytes)
    }
    return 0
}

private func fuzzCSV(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let reader = CSVReader(stream: ChunkedStream(Array(bytes.dropFirst()), step: Int(first) * 7 + 1), fileName: "fuzz.txt")
    // Every field is a piece of the input (quotes and separators dropped), so the fields of
    // all records together never hold more bytes than the input; lines only go forward.
    var total = 0
    var lastLine = 0
    do {
        while try reader.nextRecord() {
            for i in 0..<reader.fieldCount { total += reader.field(i).count }
            if reader.line < lastLine { fatalError("line numbers went backwards: \(reader.line) after \(lastLine)") }
            lastLine = reader.line
        }
    } catch {}
    if total > bytes.count { fatalError("fields hold \(total) bytes of a \(bytes.count)-byte input") }
}

private func fuzzZip(_ bytes: [UInt8]) {
    guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes)) else { return }
    guard let archive = try? ZipArchive(path: scratch) else { return }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    defer { buffer.deallocate() }
    for name in archive.fileNames.sorted() {
        guard let stream = try? archive.open(name) else { continue }
        var total = 0
        // Bounded reads: an entry may declare gigabytes.
        while total < 8 << 20, let n = try? stream.read(into: buffer), n > 0 { total += n }
    }
}

private func fuzzFields(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { field in
        _ = FieldParser.time(field)
        _ = FieldParser.date(field)
        _ = FieldParser.integer(field)
        _ = FieldParser.double(field)
        _ = UTF8Check.isValid(field.baseAddress ?? UnsafePointer(bitPattern: 1)!, field.count)
        var interner = ByteInterner(capacity: 2)
        let (id, _) = interner.intern(field)
        if interner.find(field) != id { fatalError("interner lost a key") }
    }
    if let text = UTF8Check.string(bytes) {
        _ = CivilDate(iso: text)
        _ = SearchKey.words(text)
    }
}

/// Every decoder of a packed column must end with a value or `PackedReader.Damaged`; any
/// other error (or a trap) is a finding.
private func fuzzPacked(_ bytes: [UInt8]) {
    func damagedOnly(_ name: String, _ decode: () throws -> Void) {
        do { try decode() } catch is PackedReader.Damaged {} catch { fatalError("\(name) threw \(type(of: error)): \(error)") }
    }
    damagedOnly("PatternStopsBlob") { _ = try PatternStopsBlob.decode(bytes) }
    damagedOnly("PatternTripsBlob") { _ = try PatternTripsBlob.decode(bytes) }
    damagedOnly("StopPatternsBlob") { _ = try StopPatternsBlob.decode(bytes) }
    damagedOnly("TripBlock") { _ = try TripBlock.decode(firstTid: 1, bytes) }
    damagedOnly("IDGroup") { _ = try IDGroup.decode(bytes) }
    damagedOnly("DateSetBlob") { _ = try DateSetBlob.decode(bytes) }
    damagedOnly("IDListBlob") { _ = try IDListBlob.decode(bytes) }
    damagedOnly("ShapeEdgesBlob") { _ = try ShapeEdgesBlob.decode(bytes) }
    damagedOnly("ShapeBlob") { _ = try ShapeBlob.decode(bytes) }
    damagedOnly("ShapeBlob row") { _ = try ShapeBlob.decodeRow(bytes) }
    damagedOnly("PlannerRoutesBlob stops") { _ = try PlannerRoutesBlob.decodeStops(bytes, fid: 1, maxSid: 1_000_000) }
    damagedOnly("PlannerRoutesBlob trips") {
        var (trips, templates) = (PlannerRoutesBlob.TripColumns(), [PlannerRoutesBlob.Entry]())
        try PlannerRoutesBlob.decode(bytes, appendingTo: &trips, templates: &templates)
    }
    damagedOnly("PatternStopsBlob offsets") {
        var (departures, arrivals) = ([Int32](), [Int32]())
        _ = try PatternStopsBlob.appendOffsets(of: bytes, departures: &departures, arrivals: &arrivals, maxSid: 1_000_000)
    }
    // Service blocks are deflated: the raw bytes reach the inflater, their deflated form the
    // parser. Their errors are the inflater's `ServiceBlock.Damaged` and the parser's
    // `PackedReader.Damaged`.
    func serviceBlock(_ input: [UInt8]) {
        do { _ = try ServiceBlock.decode(input) } catch is ServiceBlock.Damaged {} catch is PackedReader.Damaged {} catch {
            fatalError("ServiceBlock threw \(type(of: error)): \(error)")
        }
    }
    serviceBlock(bytes)
    if let deflated = try? ServiceBlock.deflate(bytes) { serviceBlock(deflated) }
    // A patch's contents behind a valid header and checksum, so the parser itself is reached:
    // a damaged body is a `PatchFormatError` that says so.
    do {
        _ = try BundlePatch(decoding: BundlePatch.sealed(BundlePatch.magic + bytes))
    } catch let error as PatchFormatError {
        if !error.description.contains("contents do not parse") && !error.description.contains("patch format") {
            fatalError("a sealed patch failed its header or checksum: \(error)")
        }
    } catch {
        fatalError("BundlePatch threw \(type(of: error)): \(error)")
    }
}

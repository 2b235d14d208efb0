import BundleFormat
import Foundation
import PatchEngine
// libFuzzer entry point for the compiler's input readers. Built by `make fuzz` together
// with the GTFSCompiler sources as one module (so the readers' internal API is reachable);
// FUZZ_TARGET chooses what the input feeds: csv, zip, fields, json or packed (the bundle's
// packed columns, as a damaged bundle would hand them to the runtime).
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
    default: fuzzCSV(bytes)
    }
    return 0
}

private func fuzzCSV(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let reader = CSVReader(stream: ChunkedStream(Array(bytes.dropFirst()), step: Int(first) * 7 + 1), fileName: "fuzz.txt")
    var checksum = 0
    do {
        while try reader.nextRecord() {
            for i in 0..<reader.fieldCount { checksum &+= reader.field(i).count }
            _ = reader.line
        }
    } catch {}
    if checksum < 0 { fatalError("negative field length") }
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

/// Every decoder of a packed column must end with a value or `PackedReader.Damaged`.
private func fuzzPacked(_ bytes: [UInt8]) {
    _ = try? PatternStopsBlob.decode(bytes)
    _ = try? PatternTripsBlob.decode(bytes)
    _ = try? StopPatternsBlob.decode(bytes)
    _ = try? TripBlock.decode(firstTid: 1, bytes)
    _ = try? IDGroup.decode(bytes)
    _ = try? DateSetBlob.decode(bytes)
    _ = try? IDListBlob.decode(bytes)
    _ = try? ShapeEdgesBlob.decode(bytes)
    _ = try? ShapeBlob.decode(bytes)
    _ = try? ShapeBlob.decodeRow(bytes)
    // Service blocks are deflated: the raw bytes reach the inflater, their deflated form the parser.
    _ = try? ServiceBlock.decode(bytes)
    if let deflated = try? ServiceBlock.deflate(bytes) { _ = try? ServiceBlock.decode(deflated) }
    // A patch's contents behind a valid header and checksum, so the parser itself is reached.
    _ = try? BundlePatch(decoding: BundlePatch.sealed(BundlePatch.magic + bytes))
}

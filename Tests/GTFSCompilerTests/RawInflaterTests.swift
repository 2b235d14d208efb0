import CZlib
import TestKit
import XCTest

@testable import GTFSCompiler

/// `RawInflater` (igzip on Linux) against zlib as the independent reading: zlib deflates
/// seeded CSV-like text, the inflater gives it back in chunks of seeded sizes with zlib's
/// CRC-32; cut or damaged streams end in an error, never in a hang or wrong bytes passed
/// as good.
final class RawInflaterTests: XCTestCase {
    /// Seeded rows like a stop_times.txt (repetitive, as real feeds are) and some noise.
    private func text(_ random: inout SplitMix64, bytes: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes + 64)
        var trip = 1000
        while out.count < bytes {
            if Int.random(in: 0..<20, using: &random) == 0 { trip += 1 }
            let secs = Int.random(in: 0..<100_000, using: &random)
            let row =
                "T\(trip)-SEM,\(secs / 3600):\(secs / 60 % 60):\(secs % 60),S\(Int.random(in: 0..<5000, using: &random)),\(Int.random(in: 1..<60, using: &random))\r\n"
            out += row.utf8
        }
        return out
    }

    /// `data` as a raw deflate stream (no header), by zlib at `level`.
    private func deflated(_ data: [UInt8], level: Int32) throws -> [UInt8] {
        var z = z_stream()
        XCTAssertEqual(
            deflateInit2_(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)), Z_OK
        )
        defer { deflateEnd(&z) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&z, uLong(data.count))))
        var input = data
        let count = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                z.next_in = i.baseAddress
                z.avail_in = uInt(i.count)
                z.next_out = o.baseAddress
                z.avail_out = uInt(o.count)
                XCTAssertEqual(deflate(&z, Z_FINISH), Z_STREAM_END)
                return o.count - Int(z.avail_out)
            }
        }
        return Array(out[0..<count])
    }

    /// Inflates `compressed`, given in chunks of up to `inputChunk` bytes, into buffers of up
    /// to `outputChunk` bytes; the bytes, whether the stream ended, and the inflater's CRC-32.
    private func inflate(_ compressed: [UInt8], inputChunk: Int, outputChunk: Int, random: inout SplitMix64) throws -> (
        [UInt8], Bool, UInt32
    ) {
        let inflater = try RawInflater()
        var offset = 0
        var out: [UInt8] = []
        var ended = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: outputChunk, alignment: 8)
        defer { buffer.deallocate() }
        try compressed.withUnsafeBytes { all in
            var rounds = 0
            while !ended {
                rounds += 1
                XCTAssertLessThan(rounds, 10_000_000, "no end")
                let size = Int.random(in: 1...outputChunk, using: &random)
                let (count, done) = try inflater.inflate(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size])) {
                    guard offset < all.count else { return nil }
                    let take = min(all.count - offset, Int.random(in: 1...inputChunk, using: &random))
                    defer { offset += take }
                    return UnsafeRawBufferPointer(rebasing: all[offset..<(offset + take)])
                }
                out += buffer[0..<count]
                ended = done
            }
        }
        return (out, ended, inflater.crc)
    }

    func testStreamsInflateToWhatZlibDeflatedWithItsCRC() throws {
        let seed = SplitMix64.testSeed(41_2026)
        var random = SplitMix64(state: seed)
        for (level, bytes, inputChunk, outputChunk) in [
            (Int32(6), 3_000_000, 65_536, 262_144), (1, 200_000, 7, 13), (9, 1, 1, 1), (0, 70_000, 1000, 5000),
        ] {
            let original = text(&random, bytes: bytes)
            let compressed = try deflated(original, level: level)
            let (out, ended, crc) = try inflate(compressed, inputChunk: inputChunk, outputChunk: outputChunk, random: &random)
            XCTAssertTrue(ended, "seed \(seed), level \(level)")
            XCTAssertEqual(out.count, original.count, "seed \(seed), level \(level)")
            XCTAssertTrue(out == original, "seed \(seed), level \(level)")
            let expected = original.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            XCTAssertEqual(crc, expected, "seed \(seed), level \(level)")
        }
    }

    func testAStreamCutShortIsTruncated() throws {
        let seed = SplitMix64.testSeed(41_2027)
        var random = SplitMix64(state: seed)
        let compressed = try deflated(text(&random, bytes: 500_000), level: 6)
        for _ in 0..<20 {
            let cut = Int.random(in: 0..<(compressed.count - 1), using: &random)
            XCTAssertThrowsError(
                try inflate(Array(compressed[0..<cut]), inputChunk: 4096, outputChunk: 65_536, random: &random),
                "seed \(seed), cut at \(cut) of \(compressed.count)"
            ) { error in
                guard case RawInflater.Failure.truncated = error else {
                    return XCTFail("seed \(seed), cut at \(cut): \(error) instead of truncated")
                }
            }
        }
    }

    func testDamagedStreamsFailOrGiveOtherBytes() throws {
        let seed = SplitMix64.testSeed(41_2028)
        var random = SplitMix64(state: seed)
        let original = text(&random, bytes: 300_000)
        let compressed = try deflated(original, level: 6)
        var failures = 0
        for _ in 0..<50 {
            var damaged = compressed
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            do {
                let (out, ended, crc) = try inflate(damaged, inputChunk: 65_536, outputChunk: 65_536, random: &random)
                // Deflate may read damage as other valid codes: then the bytes or the CRC
                // (what ZipEntryStream checks) are not the original's.
                let expected = original.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
                XCTAssertTrue(!ended || out != original || crc != expected, "seed \(seed): damage went unseen")
            } catch RawInflater.Failure.damaged, RawInflater.Failure.truncated {
                failures += 1
            }
        }
        XCTAssertGreaterThan(failures, 0, "seed \(seed): some damaged streams are refused outright")
    }
}

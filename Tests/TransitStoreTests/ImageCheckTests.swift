import Foundation
import TestKit
import XCTest

@testable import TransitStore

/// What the store takes for a photo: the bytes' own header, checked against files written
/// here by hand from each format's specification.
final class ImageCheckTests: XCTestCase {
    /// A baseline JPEG's first segments: SOI, an APP0 (JFIF) segment, then SOF0 with the size.
    private func jpegHead(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xDB, 0x00, 0x04, 0x00, 0x01]  // a (short) quantisation table segment
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
        bytes += [0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return bytes
    }

    func testEachFormatIsRecognisedWithItsPixelSize() {
        XCTAssertEqual(ImageCheck(jpegHead(width: 1600, height: 900)), ImageCheck(jpegHead(width: 1600, height: 900)))
        let jpeg = ImageCheck(jpegHead(width: 1600, height: 900))
        XCTAssertEqual(jpeg?.kind, .jpeg)
        XCTAssertEqual(jpeg?.width, 1600)
        XCTAssertEqual(jpeg?.height, 900)
        let png = ImageCheck([UInt8](PNGImage.make(width: 321, height: 17)))
        XCTAssertEqual(png?.kind, .png)
        XCTAssertEqual(png?.width, 321)
        XCTAssertEqual(png?.height, 17)
        let gif = ImageCheck(Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0, 0, 0])
        XCTAssertEqual(gif?.kind, .gif)
        XCTAssertEqual(gif?.width, 320)
        XCTAssertEqual(gif?.height, 240)
        let webp = ImageCheck(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8))
        XCTAssertEqual(webp?.kind, .webp)
        XCTAssertNil(webp?.width)
    }

    func testWhatIsNotAnImageIsRefused() {
        XCTAssertNil(ImageCheck(Array("<!doctype html><html><body>Sign in</body></html>".utf8)))
        XCTAssertNil(ImageCheck(Array("PK\u{3}\u{4}not a photo".utf8)))
        XCTAssertNil(ImageCheck([]))
        XCTAssertNil(ImageCheck([0x89, 0x50, 0x4E, 0x47]), "a PNG signature cut short")
        // A JPEG whose segments do not add up: recognised, its size unknown (never a trap).
        let broken = ImageCheck([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00, 0xFF, 0xC0] + [UInt8](repeating: 0xFF, count: 20))
        XCTAssertEqual(broken?.kind, .jpeg)
        XCTAssertNil(broken?.width)
        // Every prefix of a real header is read without a trap.
        let head = jpegHead(width: 10, height: 20)
        for length in 0...head.count { _ = ImageCheck(Array(head.prefix(length))) }
    }
}

/// What a downloaded file's first bytes say it is: a JPEG, PNG, GIF or WebP image (and its
/// pixel size where the header gives it cheaply), or something else. The bytes are judged,
/// not the server's `Content-Type`, which a misconfigured server or a captive portal gets
/// wrong.
struct ImageCheck: Equatable {
    enum Kind: String {
        case jpeg, png, gif, webp

        /// The file name's extension.
        var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    }

    let kind: Kind
    /// Pixels wide and high, nil when the header was not read that far.
    let width: Int?
    let height: Int?

    /// The image `bytes` (the file's head, 64 KB are plenty) hold, nil when they are not one.
    init?(_ bytes: [UInt8]) {
        func u16be(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func u32be(_ i: Int) -> Int { u16be(i) << 16 | u16be(i + 2) }
        func u16le(_ i: Int) -> Int { Int(bytes[i + 1]) << 8 | Int(bytes[i]) }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The IHDR chunk comes first: width and height at 16 and 20.
            self.init(kind: .png, width: u32be(16), height: u32be(20))
        } else if bytes.count >= 10, bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self.init(kind: .gif, width: u16le(6), height: u16le(8))
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self.init(kind: .webp, width: nil, height: nil)
        } else if bytes.count >= 3, bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            let size = Self.jpegSize(bytes)
            self.init(kind: .jpeg, width: size?.width, height: size?.height)
        } else {
            return nil
        }
    }

    private init(kind: Kind, width: Int?, height: Int?) {
        self.kind = kind
        self.width = width
        self.height = height
    }

    /// The frame size of a JPEG's first start-of-frame segment, walking the segments from
    /// the start; nil when it lies past `bytes` or the segments do not add up.
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                i += 2
                continue
            }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2 else { return nil }
            // SOF0 to SOF15, less DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                return (width, height)
            }
            i += 2 + length
        }
        return nil
    }
}

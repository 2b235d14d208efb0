/// Validates UTF-8 with an ASCII fast path (eight bytes at a time). Shared because
/// `String(validating:)` needs macOS 15 / iOS 18, and the runtime supports older systems.
package enum UTF8Check {
    package static func isValid(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var i = 0
        while i < count {
            if i + 8 <= count {
                let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            var scalar: UInt32
            if b & 0xE0 == 0xC0 {
                length = 2
                scalar = UInt32(b & 0x1F)
                minimum = 0x80
            } else if b & 0xF0 == 0xE0 {
                length = 3
                scalar = UInt32(b & 0x0F)
                minimum = 0x800
            } else if b & 0xF8 == 0xF0 {
                length = 4
                scalar = UInt32(b & 0x07)
                minimum = 0x10000
            } else {
                return false
            }
            guard i + length <= count else { return false }
            for j in 1..<length {
                let c = bytes[i + j]
                guard c & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            i += length
        }
        return true
    }
}

extension UTF8Check {
    /// The bytes as a String, or nil when they are not valid UTF-8.
    package static func string<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        let copy = Array(bytes)
        let valid = copy.withUnsafeBufferPointer { $0.isEmpty || isValid($0.baseAddress!, $0.count) }
        return valid ? String(decoding: copy, as: UTF8.self) : nil
    }
}

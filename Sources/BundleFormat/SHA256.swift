/// SHA-256 (FIPS 180-4): the fingerprint of each input feed and of a bundle's content.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(bytes)
/// let hex = hasher.finalizeHex()
/// ```
package struct SHA256 {
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
    private var h: [UInt32] = [0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0
    private var w = [UInt32](repeating: 0, count: 64)

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length += UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            start = take
            if pending.count == 64 {
                let block = pending
                block.withUnsafeBytes { compress($0, 0..<1) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        let blocks = (bytes.count - start) / 64
        if blocks > 0 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[start...]), 0..<blocks)
            start += blocks * 64
        }
        if start < bytes.count { pending.append(contentsOf: bytes[start...]) }
    }

    package mutating func finalizeHex() -> String {
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = length &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBytes { compress($0, 0..<($0.count / 64)) }
        return h.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// Compresses the 64-byte blocks `blocks` of `bytes` into the state.
    private mutating func compress(_ bytes: UnsafeRawBufferPointer, _ blocks: Range<Int>) {
        // Unsafe buffers: the loops below run for every 64 bytes hashed, and array bounds and
        // uniqueness checks would cost more than the arithmetic.
        w.withUnsafeMutableBufferPointer { w in
            Self.k.withUnsafeBufferPointer { k in
                h.withUnsafeMutableBufferPointer { h in
                    for block in blocks {
                        let at = block * 64
                        for i in 0..<16 { w[i] = bytes.loadUnaligned(fromByteOffset: at + i * 4, as: UInt32.self).bigEndian }
                        for i in 16..<64 {
                            let s0 = Self.rotr(w[i - 15], 7) ^ Self.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                            let s1 = Self.rotr(w[i - 2], 17) ^ Self.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                        }
                        var a = h[0]
                        var b = h[1]
                        var c = h[2]
                        var d = h[3]
                        var e = h[4]
                        var f = h[5]
                        var g = h[6]
                        var hh = h[7]
                        for i in 0..<64 {
                            let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
                            let choice = (e & f) ^ (~e & g)
                            let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
                            let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
                            let majority = (a & b) ^ (a & c) ^ (b & c)
                            let t2 = s0 &+ majority
                            hh = g
                            g = f
                            f = e
                            e = d &+ t1
                            d = c
                            c = b
                            b = a
                            a = t1 &+ t2
                        }
                        h[0] &+= a
                        h[1] &+= b
                        h[2] &+= c
                        h[3] &+= d
                        h[4] &+= e
                        h[5] &+= f
                        h[6] &+= g
                        h[7] &+= hh
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}

/// Feeds SHA256 in large blocks: many small writes (a value's type byte, an 8-byte integer)
/// are gathered first, since each `update` call has a fixed cost.
package struct BufferedSHA256 {
    private var hasher = SHA256()
    private var buffer: [UInt8] = []

    package init() { buffer.reserveCapacity(1 << 16) }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    package mutating func append(byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// LEB128: seven bits a byte, low bits first, the high bit set on all but the last.
    package mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        buffer.append(UInt8(rest))
        if buffer.count >= 1 << 16 { flush() }
    }

    package mutating func finalizeHex() -> String {
        flush()
        return hasher.finalizeHex()
    }

    private mutating func flush() {
        buffer.withUnsafeBytes { hasher.update($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

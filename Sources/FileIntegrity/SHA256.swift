#if canImport(CommonCrypto)
    import CommonCrypto
#else
    import CCrypto
#endif

/// SHA-256 (FIPS 180-4): the fingerprint of each input feed, of a bundle's content and of a
/// downloaded file. It calls the platform's implementation (CommonCrypto on Apple platforms,
/// OpenSSL's libcrypto elsewhere), which uses the CPU's SHA instructions (the figures against
/// the portable Swift version this replaced: README.md, "Dependencies, and why").
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(bytes)
/// let hex = hasher.finalizeHex()
/// ```
/// A copy of a hasher shares its state with the original; use each hasher from one place.
package struct SHA256 {
    private let context = Context()

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        context.update(base, bytes.count)
    }

    package mutating func finalizeHex() -> String {
        let digest = context.finalize()
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The platform's hashing state, released with the hasher.
    private final class Context {
        #if canImport(CommonCrypto)
            private var state = CC_SHA256_CTX()

            init() { CC_SHA256_Init(&state) }

            func update(_ base: UnsafeRawPointer, _ count: Int) {
                var at = base
                var left = count
                while left > 0 {
                    let take = min(left, 1 << 30)
                    CC_SHA256_Update(&state, at, CC_LONG(take))
                    at += take
                    left -= take
                }
            }

            func finalize() -> [UInt8] {
                var digest = [UInt8](repeating: 0, count: 32)
                CC_SHA256_Final(&digest, &state)
                return digest
            }
        #else
            private let state: OpaquePointer

            init() {
                // Allocation fails only when memory is exhausted, where nothing else would run either.
                guard let state = EVP_MD_CTX_new(), EVP_DigestInit_ex(state, EVP_sha256(), nil) == 1 else {
                    fatalError("libcrypto cannot start a SHA-256")
                }
                self.state = state
            }

            deinit { EVP_MD_CTX_free(state) }

            func update(_ base: UnsafeRawPointer, _ count: Int) {
                EVP_DigestUpdate(state, base, count)
            }

            func finalize() -> [UInt8] {
                var digest = [UInt8](repeating: 0, count: 32)
                var length: UInt32 = 0
                EVP_DigestFinal_ex(state, &digest, &length)
                return digest
            }
        #endif
    }
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

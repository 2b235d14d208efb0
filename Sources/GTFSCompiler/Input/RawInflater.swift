#if canImport(CIsal)
    import CIsal
#else
    import CZlib
#endif

/// Inflates one raw deflate stream (a zip entry's data) into the caller's buffers and
/// keeps the CRC-32 of what it wrote. On Linux through ISA-L's igzip, elsewhere zlib (the
/// faster of the two where it builds: README, "Inflate").
///
/// ```swift
/// let inflater = try RawInflater()
/// let result = try inflater.inflate(into: buffer) { nextCompressedChunk() }
/// if result.ended { check(inflater.crc) }
/// ```
final class RawInflater {
    /// Why a stream could not be inflated.
    enum Failure: Error {
        /// The compressed bytes end before the stream does.
        case truncated
        /// The data is not deflate (the library's own code).
        case damaged(code: Int32)
        /// The library could not start.
        case cannotStart
    }

    #if canImport(CIsal)
        /// The library's name, for messages.
        static let libraryName = "igzip"
        private let state: UnsafeMutablePointer<inflate_state>
    #else
        static let libraryName = "zlib"
        private let state: UnsafeMutablePointer<z_stream>
        private var checksum: UInt = 0
    #endif
    /// The compressed bytes given so far are all read and `refill` said there are no more.
    private var inputEnded = false
    /// The stream has ended: `inflate` writes nothing more.
    private(set) var hasEnded = false

    init() throws {
        #if canImport(CIsal)
            state = .allocate(capacity: 1)
            isal_inflate_init(state)
            // Raw deflate, with the CRC-32 (gzip's) of the output kept in `state.crc`.
            state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR)
        #else
            state = .allocate(capacity: 1)
            state.initialize(to: z_stream())
            guard inflateInit2_(state, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                state.deallocate()
                throw Failure.cannotStart
            }
        #endif
    }

    deinit {
        #if !canImport(CIsal)
            inflateEnd(state)
        #endif
        state.deallocate()
    }

    /// The CRC-32 of every byte written so far.
    var crc: UInt32 {
        #if canImport(CIsal)
            state.pointee.crc
        #else
            UInt32(truncatingIfNeeded: checksum)
        #endif
    }

    /// Fills `output` (less only where the stream ends) and says how much it wrote and
    /// whether the stream has ended (after which it writes nothing). `refill` gives the
    /// next compressed bytes when the last are used up (they must stay valid until it is
    /// asked again), nil when there are no more.
    /// - Throws: `Failure.truncated` when they end before the stream; `.damaged` for data
    ///   that is not deflate.
    func inflate(into output: UnsafeMutableRawBufferPointer, refill: () throws -> UnsafeRawBufferPointer?) throws -> (
        count: Int, ended: Bool
    ) {
        guard !hasEnded, let base = output.baseAddress, output.count > 0 else { return (0, hasEnded) }
        let capacity = UInt32(clamping: output.count)
        #if canImport(CIsal)
            let s = state
            s.pointee.next_out = base.assumingMemoryBound(to: UInt8.self)
            s.pointee.avail_out = capacity
            while !hasEnded && s.pointee.avail_out > 0 {
                if s.pointee.avail_in == 0, let chunk = try nextInput(refill) {
                    s.pointee.next_in = UnsafeMutablePointer(mutating: chunk.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    s.pointee.avail_in = UInt32(clamping: chunk.count)
                }
                let before = (s.pointee.avail_in, s.pointee.avail_out)
                let rc = isal_inflate(s)
                guard rc >= 0 else { throw Failure.damaged(code: rc) }
                hasEnded = s.pointee.block_state == ISAL_BLOCK_FINISH
                // No byte taken and none given: the input has run out before the stream's end.
                if !hasEnded && before == (s.pointee.avail_in, s.pointee.avail_out) {
                    if inputEnded || s.pointee.avail_in == 0 { throw Failure.truncated }
                    throw Failure.damaged(code: rc)
                }
            }
            return (Int(capacity - s.pointee.avail_out), hasEnded)
        #else
            let z = state
            z.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_out = uInt(capacity)
            while z.pointee.avail_out > 0 {
                if z.pointee.avail_in == 0, let chunk = try nextInput(refill) {
                    z.pointee.next_in = UnsafeMutablePointer(mutating: chunk.baseAddress!.assumingMemoryBound(to: Bytef.self))
                    z.pointee.avail_in = uInt(clamping: chunk.count)
                }
                let rc = CZlib.inflate(z, Z_NO_FLUSH)
                if rc == Z_STREAM_END {
                    hasEnded = true
                    break
                }
                if rc == Z_BUF_ERROR && z.pointee.avail_in == 0 && inputEnded { throw Failure.truncated }
                guard rc == Z_OK else { throw Failure.damaged(code: rc) }
            }
            let count = Int(capacity - UInt32(z.pointee.avail_out))
            if count > 0 { checksum = crc32(checksum, base.assumingMemoryBound(to: Bytef.self), uInt(count)) }
            return (count, hasEnded)
        #endif
    }

    /// The next compressed bytes from `refill` (never empty), nil once it has given its
    /// last: it is not asked again.
    private func nextInput(_ refill: () throws -> UnsafeRawBufferPointer?) rethrows -> UnsafeRawBufferPointer? {
        guard !inputEnded else { return nil }
        if let chunk = try refill(), chunk.baseAddress != nil, chunk.count > 0 { return chunk }
        inputEnded = true
        return nil
    }
}

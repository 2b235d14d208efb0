/// A forward-only source of bytes: one file of a feed, from a folder or a zip entry.
protocol ByteStream: AnyObject {
    /// Fills up to `buffer.count` bytes; returns how many, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

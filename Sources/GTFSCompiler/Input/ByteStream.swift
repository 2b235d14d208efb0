/// A forward-only source of bytes: one file of a feed, from a folder or a zip entry.
protocol ByteStream: AnyObject {
    /// Fills up to `buffer.count` bytes; returns how many, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// The number of bytes the stream says it holds, when it knows (a zip entry's declared
    /// size, which it never exceeds; a file's size): a hint for reserving memory.
    var declaredSize: Int? { get }
}

extension ByteStream {
    var declaredSize: Int? { nil }
}

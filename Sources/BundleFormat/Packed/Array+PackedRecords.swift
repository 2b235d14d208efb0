extension Array {
    /// The records `read` meets in a packed column, each taking at least `minimumBytes` of
    /// it: room for that many on the stack (or in a temporary buffer), written through a
    /// pointer, then copied into an array of exactly their count. Decoded patterns are kept
    /// (boards), so their arrays hold no spare room; a cold board decodes tens of them, and
    /// appending a record at a time, then trimming the array, cost more instructions a stop
    /// and two allocations. `read` calls its second argument with each record.
    @inline(__always)
    package static func decoded(
        from bytes: [UInt8], recordsOfAtLeast minimumBytes: Int,
        _ read: (UnsafeBufferPointer<UInt8>, (Element) throws -> Void) throws -> Void
    ) throws -> [Element] {
        let room = bytes.count / minimumBytes
        return try withUnsafeTemporaryAllocation(of: Element.self, capacity: room) { buffer in
            var count = 0
            defer { buffer.baseAddress!.deinitialize(count: count) }
            try bytes.withUnsafeBufferPointer { column in
                try read(column) { record in
                    guard count < room else { throw PackedReader.Damaged() }
                    (buffer.baseAddress! + count).initialize(to: record)
                    count += 1
                }
            }
            return Array(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

extension Array {
    /// The array in a buffer of exactly its count, when decoding reserved room for the most
    /// records a column could hold: decoded patterns are kept (boards) or all held at once
    /// (the planner's first build, 150 MB on the 40 x copy of Strasbourg, of which 45 % was
    /// that room). One copy of a few hundred bytes per decoded column.
    package func trimmedToCount() -> [Element] {
        guard capacity > count + count / 8 + 1 else { return self }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            _ = buffer.initialize(from: self)
            initialized = count
        }
    }
}

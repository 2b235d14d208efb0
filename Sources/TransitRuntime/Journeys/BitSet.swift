/// A set of small non-negative integers (stops, routes) as one bit each, read in
/// increasing order: what a search marks in one round and goes through in the next.
struct BitSet: Sequence {
    private var words: [UInt64]
    /// Words that may hold a bit: iteration and `removeAll` read no further.
    private var usedWords = 0

    /// An empty set for the integers `0..<count`.
    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    var isEmpty: Bool { !words[0..<usedWords].contains { $0 != 0 } }

    @inline(__always)
    mutating func insert(_ value: Int) {
        let w = value >> 6
        words[w] |= 1 << UInt64(value & 63)
        if w >= usedWords { usedWords = w + 1 }
    }

    @inline(__always)
    func contains(_ value: Int) -> Bool {
        let w = value >> 6
        return w < usedWords && words[w] & (1 << UInt64(value & 63)) != 0
    }

    mutating func removeAll() {
        for w in 0..<usedWords { words[w] = 0 }
        usedWords = 0
    }

    /// The members, smallest first.
    struct Iterator: IteratorProtocol {
        fileprivate let words: [UInt64]
        fileprivate let end: Int
        fileprivate var w = -1
        fileprivate var word: UInt64 = 0

        @inline(__always)
        mutating func next() -> Int? {
            while word == 0 {
                w += 1
                guard w < end else { return nil }
                word = words[w]
            }
            let bit = word.trailingZeroBitCount
            word &= word - 1
            return w << 6 | bit
        }
    }

    func makeIterator() -> Iterator { Iterator(words: words, end: usedWords) }
}

/// The changes that turn one text or blob into another, as edits in order: keep `skip`
/// bytes of the old value, drop `delete` bytes, put `insert` bytes; the rest of the old value
/// is kept. A pattern's packed trips after two trips were retimed differ in two short places
/// far apart, so this carries two small edits instead of everything between them.
///
/// ```swift
/// let edits = ByteEdits.between(Array("abcdefgh".utf8), Array("abXdefgYh".utf8))
/// try edits.applied(to: Array("abcdefgh".utf8))  // "abXdefgYh"
/// ```
package struct ByteEdits: Equatable, Sendable {
    package struct Edit: Equatable, Sendable {
        package var skip: Int
        package var delete: Int
        package var insert: [UInt8]

        package init(skip: Int, delete: Int, insert: [UInt8]) {
            self.skip = skip
            self.delete = delete
            self.insert = insert
        }
    }

    package var edits: [Edit]

    package init(_ edits: [Edit]) { self.edits = edits }

    /// The bytes the edits carry, roughly: what they cost in a patch.
    package var size: Int { edits.reduce(0) { $0 + 3 + $1.insert.count } }

    /// - Throws: `PatchRefused` when the edits reach past the end of `old`.
    package func applied(to old: [UInt8]) throws -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(old.count + edits.reduce(0) { $0 + $1.insert.count })
        var at = 0
        for edit in edits {
            // Compared without sums that could overflow (the counts come from a file).
            guard edit.skip >= 0, edit.delete >= 0, edit.skip <= old.count - at, edit.delete <= old.count - at - edit.skip else {
                throw PatchRefused(description: "the patch edits a value past its end")
            }
            result += old[at..<at + edit.skip]
            result += edit.insert
            at += edit.skip + edit.delete
        }
        result += old[at...]
        return result
    }

    /// Edits from `old` to `new`: the common ends are kept; in between, from the start, the
    /// first run of `anchorLength` equal bytes within `reach` bytes of both sides (the one
    /// nearest the diagonal when the run repeats) ends an edit, and the search goes on after
    /// it. Linear in the values' length for the few, local changes of a new timetable; not
    /// always minimal, always correct.
    package static func between(_ old: [UInt8], _ new: [UInt8]) -> ByteEdits {
        var a = 0..<old.count
        var b = 0..<new.count
        var tail = 0
        while tail < a.count && tail < b.count && old[a.upperBound - 1 - tail] == new[b.upperBound - 1 - tail] { tail += 1 }
        a = 0..<a.upperBound - tail
        b = 0..<b.upperBound - tail
        var edits: [Edit] = []
        var kept = 0
        while true {
            while !a.isEmpty && !b.isEmpty && old[a.lowerBound] == new[b.lowerBound] {
                a = a.lowerBound + 1..<a.upperBound
                b = b.lowerBound + 1..<b.upperBound
            }
            if a.isEmpty && b.isEmpty { break }
            guard let (x, y, length) = anchor(old, a, new, b) else {
                edits.append(Edit(skip: a.lowerBound - kept, delete: a.count, insert: Array(new[b])))
                break
            }
            edits.append(Edit(skip: a.lowerBound - kept, delete: x - a.lowerBound, insert: Array(new[b.lowerBound..<y])))
            kept = x
            a = x + length..<a.upperBound
            b = y + length..<b.upperBound
        }
        return ByteEdits(edits)
    }

    /// Equal runs shorter than this are not worth ending an edit at.
    static let anchorLength = 8
    /// How far from the start of both sides an anchor is looked for.
    static let reach = 2048

    /// The earliest run of `anchorLength` bytes near the start of `b` that `a` also has near
    /// its start (nearest the diagonal), grown to its full length: (start in old, start in new, length).
    private static func anchor(_ old: [UInt8], _ a: Range<Int>, _ new: [UInt8], _ b: Range<Int>) -> (Int, Int, Int)? {
        guard a.count >= anchorLength, b.count >= anchorLength else { return nil }
        func word(_ bytes: [UInt8], _ at: Int) -> UInt64 {
            var w: UInt64 = 0
            for k in 0..<anchorLength { w = w << 8 | UInt64(bytes[at + k]) }
            return w
        }
        var starts: [UInt64: [Int]] = [:]
        for i in a.lowerBound...min(a.upperBound - anchorLength, a.lowerBound + reach) { starts[word(old, i), default: []].append(i) }
        for j in b.lowerBound...min(b.upperBound - anchorLength, b.lowerBound + reach) {
            guard let candidates = starts[word(new, j)] else { continue }
            let diagonal = j - b.lowerBound
            let i = candidates.min { abs($0 - a.lowerBound - diagonal) < abs($1 - a.lowerBound - diagonal) }!
            var length = anchorLength
            while i + length < a.upperBound && j + length < b.upperBound && old[i + length] == new[j + length] { length += 1 }
            return (i, j, length)
        }
        return nil
    }
}

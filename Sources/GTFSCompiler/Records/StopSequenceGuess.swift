import Foundation

/// The stops of the previous trip of stop_times.txt, by position: trips of one pattern
/// follow each other in most files, so the stop of a row is mostly the stop the previous
/// trip had at the same position. A guess whose bytes equal the row's stop_id is that
/// stop (the interner gives one id per text), so it spares the id table's lookup, which
/// misses the processor's caches on large feeds; a wrong guess costs a comparison of a
/// few bytes in a buffer kept hot.
///
/// ```swift
/// var guess = StopSequenceGuess()
/// guess.startTrip()                      // on a new trip_id
/// let id = guess.stop(matching: key) ?? lookUp(key)
/// guess.record(key, id: id)              // a row whose stop was accepted
/// ```
struct StopSequenceGuess {
    private var previous = Stops()
    private var current = Stops()

    /// One trip's stop_ids, one after another, and their ids.
    private struct Stops {
        var bytes: [UInt8] = []
        var ends: [Int32] = []
        var ids: [Int32] = []

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
        }
    }

    /// The rows from here on are another trip's.
    mutating func startTrip() {
        swap(&previous, &current)
        current.removeAll()
    }

    /// The id of `key` when it is the stop the previous trip had at this row's position.
    func stop(matching key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let position = current.ids.count
        guard position < previous.ids.count else { return nil }
        let start = position == 0 ? 0 : Int(previous.ends[position - 1])
        let end = Int(previous.ends[position])
        guard end - start == key.count else { return nil }
        let same = previous.bytes.withUnsafeBufferPointer { bytes in
            key.count == 0 || memcmp(bytes.baseAddress! + start, key.baseAddress!, key.count) == 0
        }
        return same ? previous.ids[position] : nil
    }

    /// The most positions and stop_id bytes kept for a trip (a trip longer, or an id
    /// longer, is looked up as usual: the guess stays a few kilobytes).
    static let positions = 1000
    static let keyBytes = 64

    /// The row's stop was accepted as `id`.
    mutating func record(_ key: UnsafeBufferPointer<UInt8>, id: Int32) {
        guard current.ids.count < Self.positions, key.count <= Self.keyBytes else { return }
        current.bytes.append(contentsOf: key)
        current.ends.append(Int32(truncatingIfNeeded: current.bytes.count))
        current.ids.append(id)
    }
}

import Foundation

/// The stops of the last three trips of stop_times.txt, by position: trips of one pattern
/// mostly follow each other, so the stop of a row is mostly the stop one of the trips just
/// before had at the same position. A guess whose bytes equal the row's
/// stop_id is that stop (the interner gives one id per text), so it spares the id table's
/// lookup, which misses the processor's caches on large feeds; a wrong guess costs a
/// comparison of a few bytes in buffers kept hot.
///
/// ```swift
/// var guess = StopSequenceGuess()
/// guess.startTrip()                      // on a new trip_id
/// let id = guess.stop(matching: key) ?? lookUp(key)
/// guess.record(key, id: id)              // a row whose stop was accepted
/// ```
struct StopSequenceGuess {
    /// The trips before this one, the latest first.
    private var previous = [Stops(), Stops(), Stops()]
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
        // The oldest trip's buffers are reused for the new one.
        var oldest = previous.removeLast()
        oldest.removeAll()
        previous.insert(current, at: 0)
        current = oldest
    }

    /// The id of `key` when it is the stop one of the last trips had at this row's
    /// position (the latest asked first).
    func stop(matching key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let position = current.ids.count
        for trip in previous where position < trip.ids.count {
            let start = position == 0 ? 0 : Int(trip.ends[position - 1])
            let end = Int(trip.ends[position])
            guard end - start == key.count else { continue }
            let same = trip.bytes.withUnsafeBufferPointer { bytes in
                key.count == 0 || memcmp(bytes.baseAddress! + start, key.baseAddress!, key.count) == 0
            }
            if same { return trip.ids[position] }
        }
        return nil
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

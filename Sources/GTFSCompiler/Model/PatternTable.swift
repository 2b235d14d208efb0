/// Folds trips into shared stop patterns: two trips share a pattern when they visit
/// the same stops with the same stop_sequence values, offsets from their first
/// departure, pickup/drop-off types, stop headsigns and interpolation flags.
struct PatternTable {
    private(set) var patterns: [BundleModel.Pattern] = []
    /// Candidate pids by a cheap fingerprint of the stops; equal stops confirm the match.
    private var index: [UInt64: [Int]] = [:]

    /// The pid for these stops, adding a new pattern when unseen.
    mutating func pid(for stops: [BundleModel.PatternStop], fid: Int) -> Int {
        let key = Self.fingerprint(stops)
        if let candidates = index[key], let pid = candidates.first(where: { patterns[$0 - 1].stops == stops }) {
            return pid
        }
        let pid = patterns.count + 1
        patterns.append(.init(pid: pid, fid: fid, stops: stops))
        index[key, default: []].append(pid)
        return pid
    }

    private static func fingerprint(_ stops: [BundleModel.PatternStop]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ part: UInt64) { h = (h ^ part) &* 0x100_0000_01b3 }
        for s in stops {
            mix(UInt64(UInt32(bitPattern: s.sid)) << 32 | UInt64(UInt32(bitPattern: s.stopSequence)))
            mix(UInt64(UInt32(bitPattern: s.arrivalOffset)) << 32 | UInt64(UInt32(bitPattern: s.departureOffset)))
            mix(
                UInt64(s.pickupType) | UInt64(s.dropOffType) << 8 | (s.interpolated ? 1 << 16 : 0) | UInt64(UInt32(bitPattern: s.hid)) << 24
            )
        }
        return h
    }
}

import TransitRuntime

/// A snapshot's live data as the journey planner reads it (`JourneyLiveData`), made on the
/// first live journey query and kept with the snapshot: every later query reads it as it
/// is. Made from the matcher's trip and pattern numbers when asked by the bundle the
/// snapshot was matched against (or one with the same content hash); asked by another
/// bundle (a newer version opened since), made again by the trips' ids for that one and
/// kept instead. A bundle that records no content hash is never taken for another: its
/// trips are found by their ids at each query.
final class JourneyLiveCache: Sendable {
    private let made = Locked<(bundle: String, live: JourneyLiveData)?>(nil)

    /// The live data for the bundle whose content hash is `bundle`, made by `make` when
    /// none is kept for it. Two threads asking at once may each make it: the same value.
    func live(forBundle bundle: String, make: () -> JourneyLiveData) -> JourneyLiveData {
        if let kept = made.withLock({ $0 }), kept.bundle == bundle { return kept.live }
        let live = make()
        if !bundle.isEmpty { made.withLock { $0 = (bundle, live) } }
        return live
    }
}

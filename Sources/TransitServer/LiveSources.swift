import Foundation
import TransitRealtime
import TransitRuntime

/// The live sources of every bundle and what each last delivered: the fetcher writes here,
/// `/v1/NAME/realtime` and `/readyz` read it, and a new bundle version is matched against
/// the messages kept here.
final class LiveSources: Sendable {
    /// One source's state.
    struct State: Sendable {
        let source: ServerConfiguration.LiveSource
        /// The last good message and its bytes (kept across failures).
        var message: RealtimeMessage?
        var bytes: Data?
        var etag: String?
        var lastModified: String?
        /// Real time of the last fetch that worked (200 or 304).
        var lastSuccess: Date?
        /// Real time of the last fetch, whatever it gave.
        var lastFetch: Date?
        /// Real time the message last changed.
        var lastChange: Date?
        var lastError: String?
        /// Failures since the last success (the back-off grows with them).
        var failures = 0
        var fetches = 0
    }

    private let states: Locked<[State]>
    private let generation = Locked(0)
    let interval: TimeInterval
    let freshIntervals: Double

    init(_ sources: [ServerConfiguration.LiveSource], interval: TimeInterval, freshIntervals: Double) {
        states = Locked(sources.map { State(source: $0) })
        self.interval = interval
        self.freshIntervals = freshIntervals
    }

    var count: Int { states.withLock { $0.count } }

    /// True when `bundle` has live sources (its answers then carry live data).
    func hasSources(for bundle: String) -> Bool { states.withLock { $0.contains { $0.source.bundle == bundle } } }

    func state(_ index: Int) -> State { states.withLock { $0[index] } }

    func update(_ index: Int, _ change: (inout State) -> Void) { states.withLock { change(&$0[index]) } }

    /// Every source of `bundle` with its state.
    func states(for bundle: String) -> [State] { states.withLock { $0.filter { $0.source.bundle == bundle } } }

    /// The live view of `bundle`'s messages matched against `version` (the one being served
    /// or the one about to be). Nil without sources.
    func view(for version: TransitBundle, named bundle: String, now: Date) async -> LiveView? {
        let own = states(for: bundle)
        guard !own.isEmpty else { return nil }
        let generation = self.generation.withLock { value -> Int in
            value += 1
            return value
        }
        let messages = own.compactMap(\.message)
        guard !messages.isEmpty else { return LiveView(snapshot: nil, generation: generation, error: nil) }
        do {
            let snapshot = try await RealtimeSnapshot(messages: messages, bundle: version, now: now)
            return LiveView(snapshot: snapshot, generation: generation, error: nil)
        } catch {
            return LiveView(snapshot: nil, generation: generation, error: "\(error)")
        }
    }

    /// Why live data are not ready: a source that never delivered, or whose last good fetch
    /// is older than `freshIntervals` intervals (real time).
    func unreadyReasons(at now: Date) -> [String] {
        states.withLock { states in
            states.compactMap { state in
                guard let success = state.lastSuccess else {
                    return "live source \(state.source.url.absoluteString) of \(state.source.bundle) has not delivered yet"
                        + (state.lastError.map { " (\($0))" } ?? "")
                }
                let age = now.timeIntervalSince(success)
                guard age > interval * freshIntervals else { return nil }
                return "live source \(state.source.url.absoluteString) of \(state.source.bundle): last good fetch \(Int(age)) s ago"
                    + (state.lastError.map { " (\($0))" } ?? "")
            }
        }
    }
}

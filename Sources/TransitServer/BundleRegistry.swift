import Foundation
import TransitRuntime

/// The bundles being served, by name: the current version of each, replaced atomically.
/// Readers take a version under a lock held for a pointer copy; nothing slow runs under it.
final class BundleRegistry: Sendable {
    private let versions: Locked<[String: ServedBundle]>
    /// The names in the order they were configured.
    let names: [String]

    init(_ bundles: [ServedBundle]) {
        versions = Locked(Dictionary(bundles.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }))
        names = bundles.map(\.name)
    }

    /// The current version of `name`.
    subscript(name: String) -> ServedBundle? { versions.withLock { $0[name] } }

    /// Every current version, in configuration order.
    var all: [ServedBundle] { versions.withLock { current in names.compactMap { current[$0] } } }

    /// Puts `version` in place of `expected` if `expected` is still current (compare and
    /// set: a swap and a live update never undo each other). True when it was replaced.
    @discardableResult
    func replace(_ expected: ServedBundle, with version: ServedBundle) -> Bool {
        versions.withLock { current in
            guard current[version.name] === expected else { return false }
            current[version.name] = version
            return true
        }
    }
}

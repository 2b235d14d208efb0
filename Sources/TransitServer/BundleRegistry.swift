import Foundation
import TransitRuntime

/// The bundles being served, by name: the current version of each, replaced atomically.
/// Readers take a version under a lock held for a pointer copy; nothing slow runs under it.
final class BundleRegistry: Sendable {
    private struct Served {
        var versions: [String: ServedBundle]
        /// The names in the order they came: configured, then installed in a store later.
        var names: [String]
    }

    private let served: Locked<Served>

    init(_ bundles: [ServedBundle]) {
        var versions: [String: ServedBundle] = [:]
        var names: [String] = []
        for bundle in bundles where versions[bundle.name] == nil {
            versions[bundle.name] = bundle
            names.append(bundle.name)
        }
        served = Locked(Served(versions: versions, names: names))
    }

    /// The current version of `name`.
    subscript(name: String) -> ServedBundle? { served.withLock { $0.versions[name] } }

    /// The names served.
    var names: [String] { served.withLock { $0.names } }

    /// Every current version, in the order of `names`.
    var all: [ServedBundle] { served.withLock { current in current.names.compactMap { current.versions[$0] } } }

    /// Puts `version` in place of `expected` if `expected` is still current (compare and
    /// set: a swap and a live update never undo each other). True when it was replaced.
    @discardableResult
    func replace(_ expected: ServedBundle, with version: ServedBundle) -> Bool {
        served.withLock { current in
            guard current.versions[version.name] === expected else { return false }
            current.versions[version.name] = version
            return true
        }
    }

    /// Serves `version` under a name not served yet (a bundle a store installed after the
    /// server started). False when the name is taken.
    @discardableResult
    func add(_ version: ServedBundle) -> Bool {
        served.withLock { current in
            guard current.versions[version.name] == nil else { return false }
            current.versions[version.name] = version
            current.names.append(version.name)
            return true
        }
    }
}

import Foundation
import TransitRealtime
import TransitRuntime

/// One version of a served bundle, open, with the live snapshot built against it. A request
/// takes the current version once and answers from it alone; a new version replaces the
/// whole value, so the bundle and its live data never come from two versions.
final class ServedBundle: Sendable {
    /// The name in request paths.
    let name: String
    let bundle: TransitBundle
    let info: BundleInfo
    /// The file this version was opened from, as it was then (nil: not watched).
    let file: FileIdentity?
    /// Live data matched against this version, nil without live sources.
    let live: LiveView?

    /// The same file opened for other languages (`?lang=`), shared by the values of one version.
    private let languages: Locked<[String: TransitBundle]>

    /// At most this many languages are kept open a version; past them a request's language
    /// is opened for it alone.
    static let keptLanguages = 8

    init(
        name: String, bundle: TransitBundle, info: BundleInfo, file: FileIdentity?, live: LiveView?,
        languages: Locked<[String: TransitBundle]> = Locked([:])
    ) {
        self.name = name
        self.bundle = bundle
        self.info = info
        self.file = file
        self.live = live
        self.languages = languages
    }

    /// The same version with other live data.
    func with(live: LiveView?) -> ServedBundle {
        ServedBundle(name: name, bundle: bundle, info: info, file: file, live: live, languages: languages)
    }

    /// The same version with another file identity (a refused new file, not opened again).
    func with(file: FileIdentity?) -> ServedBundle {
        ServedBundle(name: name, bundle: bundle, info: info, file: file, live: live, languages: languages)
    }

    /// This version naming things in `language` (a canonical tag), or as the feeds do for nil.
    func bundle(language: String?) throws -> TransitBundle {
        guard let language else { return bundle }
        if let open = languages.withLock({ $0[language] }) { return open }
        let opened = try TransitBundle(path: bundle.path, language: language)
        languages.withLock { open in
            if open.count < Self.keptLanguages { open[language] = opened }
        }
        return opened
    }

    /// The time zone of the feed `stop` belongs to.
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop` as a board would.
    func timeZone(ofStop stop: String, feed: String?) throws -> TimeZone {
        let feedID = try bundle.stop(stop, feed: feed).feedID
        return info.feeds.first { $0.feedID == feedID }?.timeZone ?? TimeZone(identifier: "UTC")!
    }

    /// Opens `path` and reads what the server needs of it, so that a damaged file is refused
    /// before it serves a request.
    static func open(name: String, path: String, language: String? = nil) throws -> (TransitBundle, BundleInfo) {
        let bundle = try TransitBundle(path: path, language: language)
        let info = try bundle.info()
        try bundle.preload()
        return (bundle, info)
    }
}

/// The live snapshot of a bundle version: the messages it was built from and what matching
/// them said.
struct LiveView: Sendable {
    /// Nil when no source has delivered a message yet, or when they could not be matched
    /// (`error` says why).
    var snapshot: RealtimeSnapshot?
    /// Changes whenever the messages do (part of every live answer's ETag).
    var generation: Int
    /// Why the messages could not be matched against the bundle.
    var error: String?
}

/// A file as `stat` sees it: a new version of a bundle (a rename over the old one, or the
/// same inode rewritten) changes it.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int64

    /// The file at `path` now; nil when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
            modified = Int64(status.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
        #else
            modified = Int64(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        #endif
    }
}

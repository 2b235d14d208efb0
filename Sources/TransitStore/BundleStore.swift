import Foundation
import ManifestSigning
import TransitRuntime
import TransitSQLite

/// The offline store an app keeps its city bundles in: fetches the manifest, downloads,
/// verifies and installs bundles, keeps them fresh with patches, evicts cached ones under a
/// storage budget, and remembers all that in its own state file. Safe to use from many tasks;
/// jobs run one at a time in the order they were asked for.
///
/// Several processes may share one folder (an app and its widget, two scripts): jobs live in
/// the shared state, and one store at a time runs jobs (it holds the folder's `jobs.lock`; the
/// others wait for it). Each store runs the jobs it was asked for; a job another process
/// finished meanwhile (the same bundle asked for twice) ends with the state's outcome. Installs, removals and
/// start-up's checks take the folder's `state.lock`, so a `remove` in one process is never
/// undone by an update finishing in another.
///
/// ```swift
/// let store = try BundleStore(directory: appSupport + "/transit")
/// try await store.refreshCatalogue(from: URL(string: "https://example.org/bundles/manifest.json")!)
/// let job = try await store.download("lisbon", explicit: true)
/// for await state in job.updates { print(state) }      // queued, downloading 1/12 MB, ..., done
/// let lisbon = try await store.open("lisbon")          // a TransitBundle
/// ```
public actor BundleStore {
    let files: BundleFiles
    let state: StoreState
    /// Held while this store runs jobs (one runner per folder).
    let jobsLock: FolderLock
    /// Held for steps that change files and state together.
    let stateLock: FolderLock
    let fetcher: FileFetcher
    /// Photos come from other hosts (a CDN): their failures say nothing of the store's network.
    let photoFetcher: FileFetcher
    /// What the store knows of the network: every request's outcome feeds it, jobs wait on it.
    public nonisolated let connectivity: ConnectivityMonitor
    /// The store's clock: what "now" is for access times, pruning, job history and expiry.
    nonisolated let now: @Sendable () -> Date
    /// The keys a manifest must be signed by (none: manifests are not authenticated).
    public nonisolated let trustedKeys: [ManifestPublicKey]
    var catalogue: Catalogue?
    /// Why the manifest kept from an earlier run (perhaps by an older release with laxer
    /// checks) was not taken: jobs end with this reason instead of running on it.
    var keptCatalogueRefusal: StoreError?
    var jobs: [String: DownloadJob] = [:]
    var worker: Task<Void, Never>?
    var running: (id: String, task: Task<Void, Error>)?
    /// Why the running job was stopped: paused or cancelled.
    var stopping: [String: JobState] = [:]
    /// The network as this store last acted on it (`watchConnectivity`).
    var actedOnPath: NetworkPath?
    /// The streams `events()` handed out.
    let eventHub = StoreEventHub()

    /// Opens (creating) the store in `directory`. Start-up removes temporary files left by a
    /// crash and checks the installed files against the state: a file whose size or time
    /// changed is re-read (its content hash verified) and the state follows the file. A lost
    /// or damaged state file is rebuilt from the bundles present, which are then counted as
    /// explicit downloads (so never evicted without the user). Pending jobs wait for
    /// `resumePendingJobs()`. Temporary and partial files are only cleaned up when no other
    /// process is running this folder's jobs. A full disk does not stop a store from opening:
    /// reading works, and so does `remove`. Nor does a folder the process may only read (a
    /// read-only mount): `status`, `currentCatalogue`, `open` and the lists work; changes fail
    /// with `StoreError.storage`.
    ///
    /// `trustedKeys`: the public keys (`gtfs-compile keygen`) a manifest must be signed by.
    /// With them, an unsigned manifest, one signed by another key or changed after signing is
    /// refused (`StoreError.untrustedManifest`), and every bundle and patch is authenticated
    /// by the signed manifest's SHA-256. Without them manifests are taken as served.
    ///
    /// `connectivity`: the monitor the store reports to and waits on (an app may share one
    /// with its other network code); `clock`: what "now" is (access times, pruning, the job
    /// history, expiry), the system's unless given.
    public init(
        directory: String, transport: any StoreTransport = BundleStore.defaultTransport(), retries: RetryPolicy = RetryPolicy(),
        trustedKeys: [ManifestPublicKey] = [], connectivity: ConnectivityMonitor = ConnectivityMonitor(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.trustedKeys = trustedKeys
        self.connectivity = connectivity
        now = clock
        let files = try BundleFiles(root: directory)
        let state = try StoreState(path: files.statePath)
        let jobsLock = FolderLock(path: files.root + "/jobs.lock")
        let stateLock = FolderLock(path: files.root + "/state.lock")
        self.files = files
        self.state = state
        self.jobsLock = jobsLock
        self.stateLock = stateLock
        fetcher = FileFetcher(transport: MonitoredTransport(inner: transport, monitor: connectivity), retries: retries)
        photoFetcher = FileFetcher(transport: transport, retries: RetryPolicy(limit: 0))
        do {
            try stateLock.withLock {
                let pending = try state.pending()
                if try jobsLock.tryLock() {
                    files.removeLeftovers(keepingPartsOf: Set(pending.map(\.id)))
                    files.removePhotoLeftovers()
                    // No store runs jobs: one recorded as running was cut short.
                    try? state.transaction { try state.interruptUnfinishedJobRows(at: clock().timeIntervalSince1970) }
                    jobsLock.unlock()
                }
                do {
                    try StoreRecovery(files: files, state: state).reconcile(pending: pending)
                } catch let error as SQLiteError where [8, 13].contains(error.code & 0xff) {
                    // A full disk (13) or a folder this process may only read (8, read-only):
                    // the check's changes wait for a start that can write; reading goes on.
                }
            }
            if let saved = try state.catalogue(), let base = URL(string: saved.base) {
                do { catalogue = try Catalogue(json: Data(saved.json), base: base) } catch {
                    let reason = (error as? StoreError)?.description ?? "\(error)"
                    keptCatalogueRefusal = .badManifest("the manifest kept from an earlier run is refused (\(reason)); fetch it again")
                }
            }
        } catch {
            throw StoreState.storeError(error, files.statePath)
        }
    }

    // MARK: - Catalogue

    /// Fetches the manifest at `url` (http, https or file) and keeps it as the last good one;
    /// a manifest that cannot be fetched or read leaves the previous one in place. With
    /// automatic updates on, bundles it has newer versions of are queued.
    ///
    /// Refused, keeping the last good one: a manifest larger than `maximumManifestBytes`;
    /// with trusted keys, one whose signature (`URL.sig`) is missing, by another key or does
    /// not match (`StoreError.untrustedManifest`); one whose sequence is lower than the last
    /// good one's, or equal to it with other content (changed metadata needs a strictly
    /// higher sequence: an older manifest of the same second is a replay), or that has none
    /// when the last good one had one, or that has expired (`StoreError.staleManifest`).
    @discardableResult
    public func refreshCatalogue(from url: URL) async throws -> Catalogue {
        let fetched = try await fetcher.fetch(url)
        guard fetched.data.count <= Self.maximumManifestBytes else {
            throw StoreError.badManifest("the manifest has \(fetched.data.count) bytes, more than \(Self.maximumManifestBytes)")
        }
        if !trustedKeys.isEmpty {
            try await checkSignature(of: fetched)
        }
        // File names resolve against where the manifest came from after redirects.
        let fresh = try Catalogue(json: fetched.data, base: fetched.url)
        try checkFreshness(fresh, bytes: [UInt8](fetched.data))
        try write {
            try state.saveCatalogue(
                source: url.absoluteString, base: fetched.url.absoluteString, fetchedAt: now().timeIntervalSince1970,
                json: [UInt8](fetched.data))
            if let sequence = fresh.sequence { try state.setPreference("manifest_sequence", String(sequence)) }
        }
        catalogue = fresh
        keptCatalogueRefusal = nil
        if try preferences().autoUpdate { _ = try updateAll() }
        await retryPhotos()
        return fresh
    }

    /// The last good manifest, nil before the first fetch.
    public func currentCatalogue() -> Catalogue? { catalogue }

    /// The manifest jobs run on; without one, why not.
    func usableCatalogue() throws -> Catalogue {
        guard let catalogue else { throw keptCatalogueRefusal ?? StoreError.noCatalogue }
        return catalogue
    }

    /// The largest manifest the store reads, 4 MB (about 8,000 bundles): the last good one
    /// is kept and read at every start.
    public static let maximumManifestBytes = 4 << 20

    /// The manifest's signature file (its URL + `.sig`) must hold a trusted key's signature
    /// of its exact bytes.
    private func checkSignature(of manifest: FetchedResource) async throws {
        guard let signatureURL = URL(string: manifest.url.absoluteString + ".sig") else {
            throw StoreError.untrustedManifest("no signature URL for \(manifest.url.absoluteString)")
        }
        let signatures: FetchedResource
        do {
            signatures = try await fetcher.fetch(signatureURL)
        } catch StoreError.transfer(let reason, _, _) {
            throw StoreError.untrustedManifest("no signature (\(reason))")
        }
        do {
            try ManifestSignatures.verify(manifest.data, signatureFile: signatures.data, trusting: trustedKeys.map(\.key))
        } catch let refusal as ManifestSignatures.Refusal {
            throw StoreError.untrustedManifest(refusal.description)
        }
    }

    /// No replay (a sequence lower than the last good one's, or the same with other bytes)
    /// and no expired manifest.
    private func checkFreshness(_ fresh: Catalogue, bytes: [UInt8]) throws {
        let last = try state.preference("manifest_sequence").flatMap { Int64($0) }
        if let last {
            guard let sequence = fresh.sequence else {
                throw StoreError.staleManifest("it has no sequence number; the last good manifest had \(last)")
            }
            guard sequence >= last else {
                throw StoreError.staleManifest("its sequence \(sequence) is lower than the last good manifest's \(last) (a replay)")
            }
            // The same manifest fetched again is fine; another one with the same number is
            // not (TUF's rule: changed metadata carries a strictly higher version).
            if sequence == last, let saved = try state.catalogue(), saved.json != bytes {
                throw StoreError.staleManifest(
                    "its sequence \(sequence) is the last good manifest's, but its content differs (a replay, or a publisher that did not raise the sequence)"
                )
            }
        } else if !trustedKeys.isEmpty && fresh.sequence == nil {
            throw StoreError.untrustedManifest("a signed manifest must carry a sequence number")
        }
        if let expires = fresh.expires, fresh.hasExpired(at: now()) {
            throw StoreError.staleManifest("it expired on \(ISO8601DateFormatter().string(from: expires))")
        }
    }

    // MARK: - Installed bundles

    /// Opens an installed bundle for queries and records the access (eviction goes least
    /// recently accessed first). The bundle keeps reading this version until released, even
    /// if an update or a removal replaces the file meanwhile. `language` names stops,
    /// routes and headsigns in the rider's language where the feed translates them
    /// (`TransitBundle.init(path:language:)`).
    public func open(_ id: String, language: String? = nil) throws -> TransitBundle {
        guard try state.installed(id) != nil else { throw StoreError.unknownBundle(id) }
        // The access time steers eviction only: on a full disk the bundle still opens.
        try? write { try state.touch(id, at: now().timeIntervalSince1970) }
        do { return try TransitBundle(path: files.bundlePath(id), language: language) } catch {
            throw StoreError.install("\(id): \(error)")
        }
    }

    /// Removes an installed bundle (and any job for it, here or in another process): its
    /// bytes no longer count at once; readers that have it open keep their file until they
    /// release it. Works on a full disk (the file goes first, freeing its space).
    public func remove(_ id: String) throws {
        try stateLock.withLock {
            guard try state.installed(id) != nil || state.pending(id) != nil else { throw StoreError.unknownBundle(id) }
            try removeHoldingLock(id)
        }
        if running?.id == id {
            stopping[id] = .cancelled
            running?.task.cancel()
        }
    }

    /// Evicts cached bundles (least recently opened first, with their photos) until the
    /// installed ones use at most `max` bytes; explicit ones stay.
    func evictCached(toFit max: Int64) throws {
        try stateLock.withLock {
            for id in StorageBudget(maxBytes: max).cachedToEvict(try installedWithPhotos(), keeping: max) { try removeHoldingLock(id) }
        }
    }

    /// Runs `body` holding the folder's state lock.
    func withStateLock<T>(_ body: () throws -> T) throws -> T { try stateLock.withLock(body) }

    func removeHoldingLock(_ id: String) throws {
        let wasInstalled = try state.installed(id) != nil
        try files.remove(id)
        files.removePhotos(of: id)
        try write {
            try state.forget(id)
            try state.forgetPhotos(of: id)
            try state.finish(id)
        }
        guard wasInstalled else { return }
        eventHub.send(.removed(id: id))
        eventHub.send(.usageChanged(usedBytes: try usedBytes()))
    }

    /// Every installed bundle with its staleness on `date` (default: the store's clock's now,
    /// in the device's time zone), its age warning and its photos' bytes.
    public func status(on date: Date? = nil, timeZone: TimeZone = .current) throws -> [InstalledBundle] {
        let date = date ?? now()
        let preferences = try preferences()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func day(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let today = day(date)
        let horizon = day(date.addingTimeInterval(Double(preferences.staleDays) * 86_400))
        let oldBefore = date.timeIntervalSince1970 - Double(preferences.staleWarningDays) * 86_400
        let photos = try state.photoBytes()
        return try state.installed().map { bundle in
            let listed = catalogue?.entry(bundle.id)?.contentHash
            let newer = listed == bundle.contentHash ? nil : listed
            let last = bundle.lastServiceDate
            return InstalledBundle(
                id: bundle.id, path: files.bundlePath(bundle.id), contentHash: bundle.contentHash, bytes: bundle.bytes,
                explicit: bundle.explicit, downloadedAt: Date(timeIntervalSince1970: bundle.downloadedAt),
                lastAccessedAt: Date(timeIntervalSince1970: bundle.lastAccessedAt),
                firstServiceDate: bundle.firstServiceDate.flatMap(ServiceDate.init), lastServiceDate: last.flatMap(ServiceDate.init),
                newerContentHash: newer,
                isStale: newer != nil || last.map { $0 <= horizon } == true || catalogue?.hasExpired(at: date) == true,
                isExpired: last.map { $0 < today } == true, isOld: bundle.downloadedAt < oldBefore, photoBytes: photos[bundle.id] ?? 0)
        }
    }

    /// Bytes the installed bundles and their photos use.
    public func usedBytes() throws -> Int64 { try installedWithPhotos().reduce(0) { $0 + $1.bytes } }

    /// The installed bundles as the budget sees them: each one's bytes with its photos'.
    func installedWithPhotos() throws -> [StoreState.Installed] {
        let photos = try state.photoBytes()
        return try state.installed().map { bundle in
            var counted = bundle
            counted.bytes += photos[bundle.id] ?? 0
            return counted
        }
    }

    func write<T>(_ body: () throws -> T) throws -> T {
        do { return try state.transaction(body) } catch { throw StoreState.storeError(error, files.statePath) }
    }
}

import FileIntegrity
import Foundation
import TransitCities
import TransitRuntime

extension BundleStore {
    /// The largest photo the store keeps, 8 MB, whatever the catalogue lists.
    public static let maximumPhotoBytes: Int64 = 8 << 20
    /// The most photos kept for one bundle (the first ones its catalogue lists): a bundle
    /// listing thousands of pictures fills nothing.
    public static let maximumPhotosPerBundle = 64
    /// The most bytes one bundle's photos may take together, 32 MB.
    public static let maximumPhotoBytesPerBundle: Int64 = 32 << 20
    /// The longest one photo may take to arrive, and all of one bundle's in one go (the rest
    /// wait for the next refresh): a server that sends a byte now and then holds no job up.
    static let photoDeadline: Duration = .seconds(30)
    static let photosDeadline: Duration = .seconds(120)

    /// The city photos of installed bundle `id`, kept or not, in the catalogue's order.
    /// - Throws: `StoreError.unknownBundle` when `id` is not installed.
    public func photos(of id: String) throws -> [CityPhoto] {
        guard try state.installed(id) != nil else { throw StoreError.unknownBundle(id) }
        return try state.photos(of: id).map { photo in
            CityPhoto(
                cityID: photo.cityID, imageID: photo.imageID, url: photo.url, type: photo.type,
                localURL: photo.file.map { URL(fileURLWithPath: files.photoFolder(id) + "/" + $0) }, bytes: photo.bytes,
                failure: photo.failure, isRefused: photo.refused)
        }
    }

    /// The kept file of a picture a city lists (`City.images`), nil while it is not kept:
    /// what an offline city page shows.
    ///
    /// ```swift
    /// let city = try bundle.city(id: "lisbon")
    /// let files = try await city.images.asyncMap { try await store.localURL(for: $0) }
    /// ```
    public func localURL(for image: City.Image) throws -> URL? {
        let wanted = image.url
        for photo in try state.photos() where photo.file != nil {
            if photo.url == wanted || resolvedURL(wanted, of: photo.bundleID)?.absoluteString == photo.url {
                return photo.file.map { URL(fileURLWithPath: files.photoFolder(photo.bundleID) + "/" + $0) }
            }
        }
        return nil
    }

    /// Fetches the photos of installed bundles that are not kept yet and not refused (a
    /// refresh does this by itself). A failure is recorded with the photo, never thrown.
    public func retryPhotos() async {
        guard let installed = try? state.installed() else { return }
        for bundle in installed where (try? state.photos(of: bundle.id).contains { $0.file == nil && !$0.refused }) == true {
            await keepPhotos(of: bundle.id, newVersion: false)
        }
    }

    /// Records the photos the installed bundle's cities list and fetches those not kept. A
    /// new version of the bundle forgets the refusals and the photos it no longer lists.
    func keepPhotos(of id: String, newVersion: Bool) async {
        guard (try? state.installed(id)) != nil else { return }
        let listed: [(cityID: String, image: City.Image)]
        do {
            listed = Array(try TransitBundle(path: files.bundlePath(id)).cityImages().prefix(Self.maximumPhotosPerBundle))
        } catch {
            return
        }
        var known = Dictionary((try? state.photos(of: id))?.map { ($0.url, $0) } ?? [], uniquingKeysWith: { a, _ in a })
        let urls = listed.map { resolvedURL($0.image.url, of: id)?.absoluteString ?? $0.image.url }
        for (url, photo) in known where !urls.contains(url) {
            if let file = photo.file { try? FileManager.default.removeItem(atPath: files.photoFolder(id) + "/" + file) }
            try? write { try state.forgetPhoto(of: id, url: url) }
            known[url] = nil
        }
        let before = (try? usedBytes()) ?? 0
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.photosDeadline)
        for (index, item) in listed.enumerated() {
            if Task.isCancelled || clock.now > deadline { break }
            let url = urls[index]
            var photo =
                known[url]
                ?? StoreState.Photo(
                    bundleID: id, url: url, cityID: item.cityID, imageID: item.image.id, type: item.image.type,
                    listedBytes: item.image.size.map(Int64.init), file: nil, bytes: 0, failure: nil, refused: false)
            if photo.file != nil || (photo.refused && !newVersion) { continue }
            photo.refused = false
            photo.failure = nil
            do {
                let keptBytes = known.values.filter { $0.file != nil }.reduce(Int64(0)) { $0 + $1.bytes }
                guard keptBytes + (item.image.size.map(Int64.init) ?? 0) <= Self.maximumPhotoBytesPerBundle else {
                    throw PhotoRefusal(
                        reason: "the bundle's photos take \(keptBytes) bytes already (at most \(Self.maximumPhotoBytesPerBundle))",
                        isFinal: true)
                }
                let kept = try await fetchPhoto(item.image, from: url, for: id)
                photo.file = kept.name
                photo.bytes = kept.bytes
            } catch let refusal as PhotoRefusal {
                photo.failure = refusal.reason
                photo.refused = refusal.isFinal
            } catch {
                photo.failure = "\(error)"
            }
            // The bundle may have gone meanwhile (removed, evicted): its photos go with it.
            guard (try? state.installed(id)) != nil else {
                files.removePhotos(of: id)
                return
            }
            try? write { try state.savePhoto(photo) }
            known[url] = photo
        }
        if let after = try? usedBytes(), after != before { eventHub.send(.usageChanged(usedBytes: after)) }
    }

    /// Why a photo is not kept: `isFinal` ones are not fetched again for this version.
    struct PhotoRefusal: Error {
        let reason: String
        let isFinal: Bool
    }

    /// Fetches one photo into the bundle's photo folder, within its listed size and the
    /// budget, checked to be an image of the listed pixel size.
    private func fetchPhoto(_ image: City.Image, from url: String, for id: String) async throws -> (name: String, bytes: Int64) {
        guard let source = URL(string: url), ["http", "https"].contains(source.scheme?.lowercased() ?? "") else {
            throw PhotoRefusal(reason: "\(url) is not an http or https URL", isFinal: true)
        }
        let listed = image.size.map(Int64.init)
        if let listed, listed > Self.maximumPhotoBytes {
            throw PhotoRefusal(reason: "the catalogue lists \(listed) bytes, more than \(Self.maximumPhotoBytes)", isFinal: true)
        }
        // A little over the listing is fine (a re-encoded file); far over is not the image listed.
        let cap = min(Self.maximumPhotoBytes, listed.map { $0 + $0 / 4 + 4096 } ?? Self.maximumPhotoBytes)
        if let max = try preferences().maxBytes, try usedBytes() + (listed ?? 0) > max {
            throw PhotoRefusal(reason: "the storage budget has no room for it", isFinal: false)
        }
        let folder = files.photoFolder(id)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw StoreError.storage("cannot create \(folder): \(error.localizedDescription)")
        }
        var hasher = SHA256()
        Array(url.utf8).withUnsafeBytes { hasher.update($0) }
        let digest = hasher.finalizeHex().prefix(16)
        let part = "\(folder)/.\(digest).part"
        defer { FileFetcher.removePartial(part) }
        do {
            let fetcher = photoFetcher
            let listing = listed == nil ? "a photo may have" : "allowed for its listing"
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await fetcher.downloadAtMost(cap, source, to: part, resumeData: nil, listing: listing) { _ in }
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: Self.photoDeadline)
                    return false
                }
                let arrived = try await group.next() ?? false
                group.cancelAll()
                if !arrived { throw PhotoRefusal(reason: "\(url) did not arrive within \(Self.photoDeadline)", isFinal: false) }
            }
        } catch let error as TransportError {
            throw PhotoRefusal(reason: error.message, isFinal: error.failure == .tooLarge)
        }
        let head = (FileHandle(forReadingAtPath: part).flatMap { try? $0.read(upToCount: 1 << 16) }).map { [UInt8]($0) } ?? []
        guard let check = ImageCheck(head) else {
            if WebPageCheck.looksLikeHTML(head) { throw PhotoRefusal(reason: WebPageCheck.explanation(source), isFinal: false) }
            throw PhotoRefusal(reason: "\(url) is not a JPEG, PNG, GIF or WebP image", isFinal: true)
        }
        if let width = image.width, let height = image.height, let found = check.width, let foundHeight = check.height,
            (found, foundHeight) != (width, height)
        {
            throw PhotoRefusal(
                reason: "\(url) is \(found)x\(foundHeight) pixels, the catalogue lists \(width)x\(height)", isFinal: true)
        }
        let name = "\(digest).\(check.kind.fileExtension)"
        let bytes = BundleFiles.stat(part)?.size ?? 0
        guard rename(part, "\(folder)/\(name)") == 0 else {
            throw StoreError.storage("cannot keep \(name): \(String(cString: strerror(errno)))")
        }
        BackupExclusion.exclude(folder)
        return (name, bytes)
    }

    /// A photo URL as a bundle lists it, resolved against where the bundle came from.
    private func resolvedURL(_ url: String, of id: String) -> URL? {
        if let absolute = URL(string: url), absolute.scheme != nil { return absolute }
        guard let base = currentCatalogue()?.entry(id)?.url else { return nil }
        return URL(string: url, relativeTo: base)?.absoluteURL
    }
}

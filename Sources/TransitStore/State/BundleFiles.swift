import FileIntegrity
import Foundation

/// Where the store keeps its files, and the file steps that must survive a crash.
///
/// ```
/// DIR/store.sqlite              the state (StoreState)
/// DIR/bundles/ID.db             installed bundles, only ever replaced by a rename
/// DIR/downloads/ID-HASH.part    a download in progress (HASH: the first 16 digits of its SHA-256)
/// DIR/photos/ID/NAME.EXT        the city photos of bundle ID (NAME: 16 digits of the URL's SHA-256)
/// DIR/rider.sqlite              the rider's own data (TransitSync), never touched here
/// ```
/// Anything else in `bundles/` that starts with a dot is a temporary file of an install or
/// patch that did not finish, removed at start-up.
struct BundleFiles {
    let root: String
    var bundles: String { root + "/bundles" }
    var downloads: String { root + "/downloads" }
    var photos: String { root + "/photos" }
    var statePath: String { root + "/store.sqlite" }

    init(root: String) throws {
        self.root = root
        for folder in [root, root + "/bundles", root + "/downloads", root + "/photos"] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw StoreError.storage("cannot create \(folder): \(error.localizedDescription)")
            }
        }
        // Downloaded again at will: out of the device's backups (the state and the rider's data stay in).
        for folder in [bundles, downloads, photos] { BackupExclusion.exclude(folder) }
    }

    /// Ids become file names: letters, digits, `.`, `_` and `-`, not starting with a dot.
    static func isSafeID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && !id.hasPrefix(".")
            && id.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 46 || byte == 95
                    || byte == 45
            }
    }

    func bundlePath(_ id: String) -> String { "\(bundles)/\(id).db" }

    /// The partial file of a download; named after the file's hash so that a resume only ever
    /// continues the same file.
    func partPath(_ id: String, fileSHA256: String) -> String { "\(downloads)/\(id)-\(fileSHA256.prefix(16)).part" }

    /// The ids of the bundle files present.
    func installedIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundles)) ?? []
        return names.filter { $0.hasSuffix(".db") && !$0.hasPrefix(".") }.map { String($0.dropLast(3)) }.filter(Self.isSafeID)
    }

    /// Removes temporary files of installs that did not finish, and partial downloads no
    /// pending job will resume.
    func removeLeftovers(keepingPartsOf pending: Set<String>) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: bundles)) ?? [] where name.hasPrefix(".") {
            try? manager.removeItem(atPath: "\(bundles)/\(name)")
        }
        for name in (try? manager.contentsOfDirectory(atPath: downloads)) ?? [] {
            let id = name.split(separator: "-").dropLast().joined(separator: "-")
            let isPart = name.hasSuffix(".part") || name.hasSuffix(".part" + ValidatorFile.suffix)
            if !isPart || !pending.contains(id) { try? manager.removeItem(atPath: "\(downloads)/\(name)") }
        }
    }

    /// The folder of bundle `id`'s city photos.
    func photoFolder(_ id: String) -> String { "\(photos)/\(id)" }

    /// Removes bundle `id`'s photos (all bundles' when nil).
    func removePhotos(of id: String?) {
        let manager = FileManager.default
        let ids = id.map { [$0] } ?? ((try? manager.contentsOfDirectory(atPath: photos)) ?? [])
        for id in ids { try? manager.removeItem(atPath: photoFolder(id)) }
    }

    /// Removes photo downloads that did not finish (names starting with a dot).
    func removePhotoLeftovers() {
        let manager = FileManager.default
        for id in (try? manager.contentsOfDirectory(atPath: photos)) ?? [] {
            for name in (try? manager.contentsOfDirectory(atPath: photoFolder(id))) ?? [] where name.hasPrefix(".") {
                try? manager.removeItem(atPath: "\(photoFolder(id))/\(name)")
            }
        }
    }

    func removeParts(of id: String) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: downloads)) ?? []
        where name.hasPrefix(id + "-") && name.split(separator: "-").dropLast().joined(separator: "-") == id {
            try? manager.removeItem(atPath: "\(downloads)/\(name)")
        }
    }

    /// Moves a verified download into place: fsync the file, rename it over the bundle's
    /// name, fsync the folder. A crash leaves either the old bundle or the new one.
    func install(_ part: String, as id: String) throws {
        do {
            try FileSync.sync(part)
            guard rename(part, bundlePath(id)) == 0 else {
                throw StoreError.install("cannot rename \(part): \(String(cString: strerror(errno)))")
            }
            try FileSync.sync(bundles)
        } catch let failure as FileSync.Failure {
            throw StoreError.install(failure.description)
        }
    }

    /// Unlinks an installed bundle: its bytes are freed once no reader holds it open.
    func remove(_ id: String) throws {
        guard unlink(bundlePath(id)) == 0 || errno == ENOENT else {
            throw StoreError.storage("cannot remove \(bundlePath(id)): \(String(cString: strerror(errno)))")
        }
        try? FileSync.sync(bundles)
    }

    /// Size and modification time (ns) of a file, nil when it is missing.
    static func stat(_ path: String) -> (size: Int64, modified: Int64)? {
        var info = Foundation.stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return (Int64(info.st_size), Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}

import Foundation

/// A feed unpacked in a folder: `stops.txt` and the rest as plain files.
struct FolderFeedSource: FeedSource {
    let path: String
    let fileNames: Set<String>
    let listingDiagnostics: [Diagnostic] = []

    init(path: String) throws {
        self.path = path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        fileNames = Set(names.filter { !$0.hasPrefix(".") })
    }

    func open(_ name: String) throws -> ByteStream? {
        guard fileNames.contains(name) else { return nil }
        return try FileHandleStream(path: path + "/" + name)
    }

    func sha256() throws -> String {
        try GTFSCompiler.sha256(of: fileNames.sorted().map { try FileHandleStream(path: path + "/" + $0) })
    }
}

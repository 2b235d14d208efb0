import Foundation

/// `file:` URLs (a manifest on disk and the bundles beside it), whatever the transport: read
/// and copied directly. `FileFetcher` sends them here, so transports speak HTTP only.
struct LocalFileTransport: StoreTransport {
    func fetch(_ url: URL) async throws -> FetchedResource {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TransportError("cannot read \(url.path)", transient: false)
        }
        return FetchedResource(data: data, url: url)
    }

    func download(_ url: URL, to destination: String, resumeData: Data?, progress: @escaping @Sendable (Int64) -> Void)
        async throws -> FinishedDownload
    {
        try FileSink(appendingTo: destination).copy(from: url.path, progress: progress)
        return FinishedDownload(url: url)
    }
}

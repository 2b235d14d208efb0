import Foundation

/// The store's transport as the connectivity monitor hears of it: every request's outcome
/// is news of the network (an answer: online; a refused connection, no route, no name:
/// offline). Anything else passes through unchanged.
struct MonitoredTransport: StoreTransport {
    let inner: any StoreTransport
    let monitor: ConnectivityMonitor

    func fetch(_ url: URL) async throws -> FetchedResource {
        try await noting { try await inner.fetch(url) }
    }

    func download(_ url: URL, to destination: String, resumeData: Data?, progress: @escaping @Sendable (Int64) -> Void)
        async throws -> FinishedDownload
    {
        try await noting { try await inner.download(url, to: destination, resumeData: resumeData, progress: progress) }
    }

    func probe(_ url: URL) async throws {
        try await noting { try await inner.probe(url) }
    }

    private func noting<T>(_ request: () async throws -> T) async throws -> T {
        do {
            let value = try await request()
            monitor.requestReachedServer()
            return value
        } catch let error as TransportError {
            if error.isOffline {
                monitor.requestFoundNoNetwork()
            } else if error.status != nil {
                monitor.requestReachedServer()
            }
            throw error
        }
    }
}

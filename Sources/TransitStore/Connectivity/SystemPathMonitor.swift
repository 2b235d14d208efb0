#if canImport(Network)
    import Network

    /// Apple's `NWPathMonitor` feeding a `ConnectivityMonitor` (satisfied, expensive,
    /// constrained) until the calling task is cancelled. Untested here: Apple platforms cannot
    /// be built on this machine (README, "Platforms").
    enum SystemPathMonitor {
        static func run(feeding monitor: ConnectivityMonitor) async {
            let system = NWPathMonitor()
            let paths = AsyncStream<NetworkPath> { continuation in
                system.pathUpdateHandler = { path in
                    continuation.yield(
                        NetworkPath(isOnline: path.status == .satisfied, isExpensive: path.isExpensive, isConstrained: path.isConstrained))
                }
                continuation.onTermination = { _ in system.cancel() }
            }
            system.start(queue: DispatchQueue(label: "transit.store.path"))
            for await path in paths { monitor.report(path) }
            system.cancel()
        }
    }
#endif

import Foundation

extension BundleStore {
    /// Keeps the store in touch with the network for as long as the calling task runs (an
    /// app starts it at launch and cancels it at exit; nothing of it outlives the call).
    ///
    /// It feeds `connectivity` from the platform (`NWPathMonitor` on Apple platforms, with
    /// expensive and constrained paths) and from probes (a `HEAD`) of the manifest's host:
    /// one at once, then every `probeInterval` while online and every `offlineProbeInterval`
    /// while offline. A failed probe is offline at once. Each change is a store event
    /// (`.connectivityChanged`). Back online (or on a network that is no longer expensive),
    /// the store refreshes the manifest (running automatic updates and fetching the photos
    /// still missing), resumes the jobs that waited and prunes old cached bundles, without
    /// being asked; so does the start of the watch when the network allows downloads.
    ///
    /// ```swift
    /// let keepInTouch = Task { await store.watchConnectivity() }
    /// // ... at exit:
    /// keepInTouch.cancel()
    /// ```
    public func watchConnectivity(probeInterval: Duration = .seconds(60), offlineProbeInterval: Duration = .seconds(5)) async {
        let monitor = connectivity
        // Heard from before anything runs: no change is missed between here and the loop.
        let changes = monitor.changes()
        actedOnPath = nil
        await networkChanged(to: monitor.path)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await path in changes { await self.networkChanged(to: path) }
            }
            group.addTask {
                while !Task.isCancelled {
                    await self.probe()
                    let pause = monitor.path.isOnline ? probeInterval : offlineProbeInterval
                    do { try await Task.sleep(for: pause) } catch { return }
                }
            }
            #if canImport(Network)
                group.addTask { await SystemPathMonitor.run(feeding: monitor) }
            #endif
            await group.next()
            group.cancelAll()
        }
    }

    /// One probe of the manifest's host; its outcome reaches the monitor through the
    /// transport. Nothing to probe before a manifest was fetched, or for a `file:` one.
    func probe() async {
        guard let saved = try? state.catalogue(), let url = URL(string: saved.source), !url.isFileURL else { return }
        try? await fetcher.transport.probe(url)
    }

    /// What the store does when the network changes (and when the watch starts): says so,
    /// and when it may download now and could not before, refreshes, resumes and prunes.
    func networkChanged(to path: NetworkPath) async {
        let before = actedOnPath
        guard before != path else { return }
        actedOnPath = path
        eventHub.send(.connectivityChanged(path))
        let wifiOnly = (try? preferences().wifiOnly) == true
        let couldDownload = before.map { $0.isOnline && !(wifiOnly && $0.isMetered) } ?? false
        let canDownload = path.isOnline && !(wifiOnly && path.isMetered)
        guard canDownload && !couldDownload else { return }
        if let saved = try? state.catalogue(), let url = URL(string: saved.source) {
            _ = try? await refreshCatalogue(from: url)
        }
        _ = try? resumeWaitingJobs()
        _ = try? prune()
    }
}

import Foundation

extension BundleStore {
    /// Opens (creating) the store in `directory` off the caller's actor: start-up's checks
    /// (leftover files, a changed bundle re-hashed, a damaged state file rebuilt) may read
    /// whole bundles, which an app's main thread must never wait for. The same store as
    /// `init(directory:transport:retries:trustedKeys:)`, whose documentation says what
    /// start-up does. The checks run to their end even when the calling task is cancelled
    /// (a half-done check would leave the state behind the files); the answer is then
    /// `CancellationError`.
    ///
    /// ```swift
    /// let store = try await BundleStore.open(directory: appSupport + "/transit", trustedKeys: [key])
    /// ```
    public static func open(
        directory: String, transport: any StoreTransport = BundleStore.defaultTransport(), retries: RetryPolicy = RetryPolicy(),
        trustedKeys: [ManifestPublicKey] = []
    ) async throws -> BundleStore {
        let opening = Task.detached(priority: .userInitiated) {
            try BundleStore(directory: directory, transport: transport, retries: retries, trustedKeys: trustedKeys)
        }
        let store = try await opening.value
        try Task.checkCancellation()
        return store
    }
}

import Foundation
import ManifestSigning

/// A key whose signature the store requires on every manifest (`gtfs-compile keygen` makes
/// the pair; the app ships the public half). Give several while a publisher rotates keys.
///
/// ```swift
/// let key = try ManifestPublicKey(contentsOf: Bundle.main.path(forResource: "manifest", ofType: "pub")!)
/// let store = try BundleStore(directory: folder, trustedKeys: [key])
/// ```
public struct ManifestPublicKey: Sendable, Hashable {
    let key: ManifestSignatures.PublicKey

    /// Reads a public key file (two lines: `transit-manifest-ed25519-public` and the key in base64).
    /// - Throws: `StoreError.badManifest` when the text is not such a key.
    public init(text: String) throws {
        do { key = try ManifestSignatures.PublicKey(text: text) } catch { throw StoreError.badManifest("\(error)") }
    }

    /// Reads the public key file at `path`.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), data.count < 4096 else {
            throw StoreError.badManifest("cannot read the key file \(path)")
        }
        try self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// The 32 bytes of the key.
    public var rawRepresentation: Data { key.raw }
}

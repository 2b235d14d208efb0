import Crypto
import Foundation

/// Ed25519 signatures of a manifest's exact bytes, as the download server publishes them
/// beside it (`manifest.json.sig`): `gtfs-compile manifest --sign KEY` writes them, the store
/// checks them against the keys it trusts before it reads a byte of the manifest.
///
/// The signature file is JSON, `{"signatures": [{"key": BASE64, "signature": BASE64}]}`: one
/// entry per signing key, so that a publisher rotating keys signs with the old and the new
/// one until every app trusts the new one. Key files are two lines of text: a header naming
/// the kind (`transit-manifest-ed25519-private` or `-public`) and the raw key in base64.
///
/// ```swift
/// let key = ManifestSignatures.PrivateKey()
/// let file = try ManifestSignatures.sign(manifest, with: [key])
/// try ManifestSignatures.verify(manifest, signatureFile: file, trusting: [key.publicKey])
/// ```
package enum ManifestSignatures {
    package static let privateHeader = "transit-manifest-ed25519-private"
    package static let publicHeader = "transit-manifest-ed25519-public"

    /// A signing key (what a publisher keeps secret).
    package struct PrivateKey {
        let key: Curve25519.Signing.PrivateKey

        package init() { key = Curve25519.Signing.PrivateKey() }

        /// Reads a private key file's text.
        package init(text: String) throws {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: try ManifestSignatures.keyBytes(text, header: privateHeader))
        }

        package var publicKey: PublicKey { PublicKey(key: key.publicKey) }

        /// The key file's text.
        package var text: String { "\(privateHeader)\n\(key.rawRepresentation.base64EncodedString())\n" }
    }

    /// A key that checks signatures (what apps trust).
    package struct PublicKey: Sendable, Hashable {
        let key: Curve25519.Signing.PublicKey

        init(key: Curve25519.Signing.PublicKey) { self.key = key }

        /// Reads a public key file's text.
        package init(text: String) throws {
            key = try Curve25519.Signing.PublicKey(rawRepresentation: try ManifestSignatures.keyBytes(text, header: publicHeader))
        }

        /// The 32 bytes of the key.
        package var raw: Data { key.rawRepresentation }

        package var text: String { "\(publicHeader)\n\(raw.base64EncodedString())\n" }

        package static func == (a: PublicKey, b: PublicKey) -> Bool { a.raw == b.raw }
        package func hash(into hasher: inout Hasher) { hasher.combine(raw) }
    }

    /// Why a manifest's signatures do not let it in.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    private struct File: Codable {
        struct Entry: Codable {
            var key: String
            var signature: String
        }
        var signatures: [Entry]
    }

    /// The signature file for `manifest` signed by each of `keys`.
    package static func sign(_ manifest: Data, with keys: [PrivateKey]) throws -> Data {
        let entries = try keys.map { key in
            File.Entry(key: key.publicKey.raw.base64EncodedString(), signature: try key.key.signature(for: manifest).base64EncodedString())
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(File(signatures: entries))
    }

    /// Succeeds when one signature in `signatureFile` is by a key of `trusted` and holds for
    /// `manifest`'s exact bytes.
    /// - Throws: `Refusal` saying why: not a signature file, no trusted key signed, or the
    ///   signature of a trusted key does not match (the manifest was changed after signing).
    package static func verify(_ manifest: Data, signatureFile: Data, trusting trusted: [PublicKey]) throws {
        guard signatureFile.count <= 65_536, let file = try? JSONDecoder().decode(File.self, from: signatureFile) else {
            throw Refusal(description: "the signature file is not a manifest signature file")
        }
        var signedByTrusted = false
        for entry in file.signatures.prefix(16) {
            guard let raw = Data(base64Encoded: entry.key), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
                trusted.contains(PublicKey(key: key)), let signature = Data(base64Encoded: entry.signature)
            else { continue }
            signedByTrusted = true
            if key.isValidSignature(signature, for: manifest) { return }
        }
        throw Refusal(
            description: signedByTrusted
                ? "the signature does not match the manifest (it was changed after it was signed)"
                : "the manifest is not signed by a trusted key")
    }

    static func keyBytes(_ text: String, header: String) throws -> Data {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.count == 2, lines[0] == header, let raw = Data(base64Encoded: lines[1]), raw.count == 32 else {
            throw Refusal(description: "not a \(header) key file (two lines: \"\(header)\" and 32 bytes in base64)")
        }
        return raw
    }
}

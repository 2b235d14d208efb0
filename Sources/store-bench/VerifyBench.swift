import Foundation
import ManifestSigning

extension StoreBench {
    /// `store-bench verify MANIFEST [N]`: the manifest's bundles repeated to 100 (ids made
    /// unique), signed with a fresh key, then the signature checked N times (default 200) as
    /// the store checks it; median and max in milliseconds, and the manifest's size.
    static func verify(_ path: String, _ runs: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard var json = try JSONSerialization.jsonObject(with: data) as? [String: Any], let bundles = json["bundles"] as? [[String: Any]],
            !bundles.isEmpty
        else { throw CocoaError(.fileReadCorruptFile) }
        json["bundles"] = (0..<100).map { index -> [String: Any] in
            var bundle = bundles[index % bundles.count]
            bundle["id"] = "city\(index)"
            return bundle
        }
        let manifest = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .prettyPrinted])
        let key = ManifestSignatures.PrivateKey()
        let signatures = try ManifestSignatures.sign(manifest, with: [key])
        var times: [Double] = []
        for _ in 0..<max(1, runs) {
            times.append(try seconds { try ManifestSignatures.verify(manifest, signatureFile: signatures, trusting: [key.publicKey]) })
        }
        times.sort()
        print(
            String(
                format: "verify a signed manifest of 100 bundles (%d bytes) x %d: median %.3f ms, max %.3f ms", manifest.count, times.count,
                times[times.count / 2] * 1000, (times.last ?? 0) * 1000))
    }
}

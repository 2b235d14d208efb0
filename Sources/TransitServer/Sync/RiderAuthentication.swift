import Crypto
import FileIntegrity
import Foundation

/// Who a sync request is from: its bearer token mapped to one rider. A token is either one
/// `transit-server token add RIDER` printed (only its SHA-256 is kept) or, when a key is
/// configured, a JWT the app's own login issued: HS256 only, signed with that key, `sub`
/// the rider, `exp` in the future (and `nbf`, when present, past). Anything else is 401.
struct RiderAuthentication: Sendable {
    let storage: any SyncStorage
    /// The HS256 key (`--jwt-secret-file`), nil: JWTs are not taken.
    let jwtKey: SymmetricKey?

    /// A new token: 32 random bytes, URL-safe base64, prefixed so that it reads as one.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "tt_" + base64URL(Data(bytes))
    }

    /// The SHA-256 (hex) a token is kept as.
    static func hash(_ token: String) -> String {
        var hash = FileIntegrity.SHA256()
        Array(token.utf8).withUnsafeBytes { hash.update($0) }
        return hash.finalizeHex()
    }

    /// Why `rider` cannot name a rider, nil when it can.
    static func problem(withRider rider: String) -> String? {
        let count = rider.utf8.count
        guard (1...200).contains(count), !rider.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            return "a rider id is 1 to 200 bytes without spaces or control characters"
        }
        return nil
    }

    /// The rider of an `Authorization` header value, nil when it names none.
    func rider(authorization: String?, now: Date) async throws -> String? {
        guard let authorization, authorization.utf8.count <= 8_192 else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { return nil }
        if token.hasPrefix("tt_") { return try await storage.rider(tokenHash: Self.hash(token)) }
        guard let jwtKey else { return nil }
        return Self.jwtSubject(token, key: jwtKey, now: now)
    }

    /// The `sub` of an HS256 JWT signed with `key` and valid at `now`, nil otherwise.
    static func jwtSubject(_ token: String, key: SymmetricKey, now: Date) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = decodeBase64URL(parts[0]), let claimsData = decodeBase64URL(parts[1]),
            let signature = decodeBase64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            header["alg"] as? String == "HS256"
        else { return nil }
        let signed = Data((parts[0] + "." + parts[1]).utf8)
        guard HMAC<Crypto.SHA256>.isValidAuthenticationCode(signature, authenticating: signed, using: key),
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            let subject = claims["sub"] as? String, problem(withRider: subject) == nil,
            let expires = (claims["exp"] as? NSNumber)?.doubleValue, expires > now.timeIntervalSince1970
        else { return nil }
        if let notBefore = (claims["nbf"] as? NSNumber)?.doubleValue, notBefore > now.timeIntervalSince1970 { return nil }
        return subject
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64URL(_ text: Substring) -> Data? {
        guard text.utf8.count <= 8_192 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

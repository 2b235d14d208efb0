import Foundation

/// Recognises a web page where a manifest or a bundle was expected: what a captive portal
/// (a hotel's or a train's Wi-Fi login) or a proxy's error page answers to every URL with
/// 200. The store then says so instead of "not valid JSON" or "shorter than listed".
enum WebPageCheck {
    /// What the store says about such an answer from `url`.
    static func explanation(_ url: URL) -> String {
        "\(url.absoluteString) answered with a web page, not the file: a network that wants a login (a captive portal) or a proxy's page; open a web page to sign in, then try again"
    }

    /// True when `bytes` begin (after white space) like an HTML document.
    static func looksLikeHTML(_ bytes: some Collection<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased().drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head")
            || (head.hasPrefix("<") && head.contains("<body"))
    }

    /// True when the file at `path` begins like an HTML document.
    static func fileLooksLikeHTML(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return looksLikeHTML((try? handle.read(upToCount: 512)) ?? Data())
    }
}

import Foundation

/// The proxy a request goes through, from the environment as curl and most Unix tools read it:
/// `http_proxy` for `http:` URLs, `https_proxy` for `https:` ones (upper-case names too), and
/// `no_proxy` (comma-separated host names or domain suffixes, `*` for all) for hosts that are
/// reached directly. Apple platforms use the system's settings through URLSession instead.
struct ProxySettings: Equatable {
    var host: String
    var port: Int
    var user: String?
    var password: String?

    /// The proxy for `url`, nil for a direct connection.
    static func forURL(_ url: URL, environment: [String: String]) -> ProxySettings? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased()
        else { return nil }
        func value(_ name: String) -> String? {
            let found = environment[name] ?? environment[name.uppercased()]
            return found?.isEmpty == false ? found : nil
        }
        if let exceptions = value("no_proxy"), bypasses(host, exceptions) { return nil }
        guard let text = value("\(scheme)_proxy") else { return nil }
        // "host:port" without a scheme is taken as http://host:port.
        guard let proxy = URL(string: text.contains("://") ? text : "http://" + text), let proxyHost = proxy.host, !proxyHost.isEmpty
        else { return nil }
        return ProxySettings(
            host: proxyHost, port: proxy.port ?? 80, user: proxy.user?.removingPercentEncoding,
            password: proxy.password?.removingPercentEncoding)
    }

    private static func bypasses(_ host: String, _ list: String) -> Bool {
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        for entry in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
            if entry == "*" { return true }
            let suffix = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if bare == suffix || bare.hasSuffix("." + suffix) { return true }
        }
        return false
    }
}

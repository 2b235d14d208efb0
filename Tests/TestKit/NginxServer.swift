import Foundation

/// Debian's nginx serving one folder on 127.0.0.1 (and [::1] when the machine has it) the ways
/// real download servers do, one path prefix per behaviour:
///
/// | prefix | what nginx does |
/// |---|---|
/// | `/files/` | plain static files with ranges |
/// | `/gzip/` | compresses on the fly (gzip level 6; chunked; no ranges) |
/// | `/gzip-static/` | sends `NAME.gz` when the client accepts gzip (`gzip_static on`) |
/// | `/gzip-always/` | sends `NAME.gz` to every client (`gzip_static always`) |
/// | `/chunked/` | identity bodies in chunked encoding (a `sub_filter` drops the length) |
/// | `/slow/` | `limit_rate` 12 KB/s |
/// | `/moved/X`, `/found/X`, `/temporary/X`, `/permanent/X` | 301, 302, 307, 308 to `/files/X` |
/// | `/latest/X` | 307 to `/releases/X` (a folder of its own: relative names resolve there) |
/// | `/truncated/` | the folder's `truncated/` subfolder |
///
/// and the same files over https (`httpsPort`) with a self-signed certificate for 127.0.0.1
/// (`certificate`). Every request is logged with its status, body bytes sent, Range, Accept-
/// and Content-Encoding (`log()`). Stopped (SIGKILL: one process, no workers) when released.
public final class NginxServer: @unchecked Sendable {
    public let port: Int
    public let httpsPort: Int
    /// The PEM certificate the https server presents (self-signed).
    public let certificate: URL
    public let ipv6: Bool
    private let folder: URL
    private var server: ServerProcess
    private let command: (executable: String, arguments: [String])

    /// The nginx binary, nil when it is not installed (`make deps` installs it).
    public static var executable: String? {
        ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public init(serving site: URL) throws {
        guard let nginx = Self.executable else { throw ServerProcessError("nginx is not installed (make deps installs it)") }
        folder = TemporaryFolders.make()
        port = try ServerProcess.freePort()
        httpsPort = try ServerProcess.freePort()
        ipv6 = ServerProcess.hasIPv6Loopback
        certificate = folder.appendingPathComponent("cert.pem")
        let key = folder.appendingPathComponent("key.pem")
        try ServerProcess.runTool(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        let root = site.path
        let temp = folder.path
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(temp)/error.log info;
            pid \(temp)/nginx.pid;
            events { worker_connections 64; }
            http {
              types { application/json json; application/octet-stream db patch; image/jpeg jpg; image/png png; text/html html; }
              default_type application/octet-stream;
              log_format field '$request_uri|$status|$body_bytes_sent|$http_range|$http_accept_encoding|$sent_http_content_encoding|$http_if_range';
              access_log \(temp)/access.log field;
              client_body_temp_path \(temp)/body; proxy_temp_path \(temp)/proxy; fastcgi_temp_path \(temp)/fastcgi;
              uwsgi_temp_path \(temp)/uwsgi; scgi_temp_path \(temp)/scgi;
              sendfile on;
              server {
                listen 127.0.0.1:\(port);
                \(ipv6 ? "listen [::1]:\(port);" : "")
                location /files/ { alias \(root)/; }
                location /releases/ { alias \(root)/; }
                location /gzip/ { alias \(root)/; gzip on; gzip_types *; gzip_comp_level 6; gzip_min_length 0; }
                location /gzip-static/ { alias \(root)/; gzip_static on; }
                location /gzip-always/ { alias \(root)/; gzip_static always; }
                location /chunked/ { alias \(root)/; sub_filter_types *; sub_filter 'no-such-text-in-any-bundle-7f3a' ''; }
                location /slow/ { alias \(root)/; limit_rate 12k; }
                location /truncated/ { alias \(root)/truncated/; }
                location /moved/ { rewrite ^/moved/(.*)$ /files/$1 permanent; }
                location /found/ { rewrite ^/found/(.*)$ /files/$1 redirect; }
                location ~ ^/temporary/(.*)$ { return 307 /files/$1; }
                location ~ ^/permanent/(.*)$ { return 308 /files/$1; }
                location ~ ^/latest/(.*)$ { return 307 /releases/$1; }
              }
              server {
                listen 127.0.0.1:\(httpsPort) ssl;
                ssl_certificate \(certificate.path);
                ssl_certificate_key \(key.path);
                location /files/ { alias \(root)/; }
              }
            }
            """
        let configFile = folder.appendingPathComponent("nginx.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        command = (nginx, ["-c", configFile.path, "-p", temp, "-e", "\(temp)/error.log"])
        server = try ServerProcess(command.executable, command.arguments, log: folder.appendingPathComponent("out.log"))
        try server.waitUntilListening(port: port)
        try server.waitUntilListening(port: httpsPort)
    }

    public func stop() { server.stop() }

    /// Starts the server again after `stop()`, on the same ports with the same files (the
    /// network coming back).
    public func restart() throws {
        server.stop()
        server = try ServerProcess(command.executable, command.arguments, log: folder.appendingPathComponent("out.log"))
        try server.waitUntilListening(port: port)
        try server.waitUntilListening(port: httpsPort)
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }
    public func httpsURL(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(httpsPort)/\(path)")! }
    public func ipv6URL(_ path: String) -> URL { URL(string: "http://[::1]:\(port)/\(path)")! }

    /// One logged request.
    public struct Request: Equatable {
        public let uri: String
        public let status: Int
        public let bodyBytes: Int64
        public let range: String?
        public let acceptEncoding: String?
        public let contentEncoding: String?
        public let ifRange: String?
    }

    /// The requests served so far (nginx writes its log line when a request ends).
    public func log() -> [Request] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 7, let status = Int(f[1]) else { return nil }
            func value(_ s: String) -> String? { s == "-" || s.isEmpty ? nil : s }
            return Request(
                uri: f[0], status: status, bodyBytes: Int64(f[2]) ?? 0, range: value(f[3]), acceptEncoding: value(f[4]),
                contentEncoding: value(f[5]), ifRange: value(f[6]))
        }
    }
}

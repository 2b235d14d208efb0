import Foundation
import TransitRuntime

/// Debian's headless chromium driven over WebDriver (`chromium-driver`'s chromedriver on a
/// free loopback port): open a page, run a script in it, type, click, read the console and
/// take screenshots. One browser per instance; `close()` (or release) ends the session and
/// kills the driver with its browser.
///
/// ```swift
/// let browser = try Browser()
/// try browser.open(URL(fileURLWithPath: "report.html"))
/// let count = try browser.evaluate("return document.querySelectorAll('path.shape').length") as? Int
/// ```
public final class Browser: @unchecked Sendable {
    private let driver: ServerProcess
    private let port: Int
    private let session: String

    /// The driver's and the browser's binaries, nil when either is missing (`make deps`).
    public static var executables: (driver: String, browser: String)? {
        guard let driver = ["/usr/bin/chromedriver"].first(where: FileManager.default.isExecutableFile),
            let browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        return (driver, browser)
    }

    /// Starts chromedriver and a headless chromium (`--no-sandbox`: the tests run as root),
    /// `width` x `height` CSS pixels.
    public init(width: Int = 1000, height: Int = 1400) throws {
        guard let (driverPath, browserPath) = Self.executables else {
            throw ServerProcessError("chromium and chromium-driver are not installed (make deps installs them)")
        }
        port = try ServerProcess.freePort()
        let log = TemporaryFolders.make().appendingPathComponent("chromedriver.log")
        driver = try ServerProcess(driverPath, ["--port=\(port)", "--allowed-ips=127.0.0.1"], log: log)
        try driver.waitUntilListening(port: port)
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": browserPath,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=\(width),\(height)",
                            "--user-data-dir=" + TemporaryFolders.make().path,
                        ],
                    ] as [String: Any],
                    "goog:loggingPrefs": ["browser": "ALL"],
                ] as [String: Any]
            ]
        ]
        let answer = try Self.request("POST", "http://127.0.0.1:\(port)/session", body: capabilities)
        guard let value = answer["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            throw ServerProcessError("chromedriver made no session: \(answer)")
        }
        session = id
    }

    deinit { close() }

    /// Ends the session (the browser quits) and the driver.
    public func close() {
        _ = try? Self.request("DELETE", "http://127.0.0.1:\(port)/session/\(session)", body: nil)
        driver.stop()
    }

    /// Loads `url` and waits until the page has loaded.
    public func open(_ url: URL) throws {
        _ = try command("POST", "url", ["url": url.absoluteString])
    }

    /// Runs `script` (a function body; `arguments` are its `arguments`) in the page and
    /// answers what it returns (JSON values: numbers, strings, arrays, objects).
    @discardableResult
    public func evaluate(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try command("POST", "execute/sync", ["script": script, "args": arguments])
    }

    /// Runs `script` until it returns true, for at most `seconds` of monotonic time (polling,
    /// never a fixed sleep); answers whether it did.
    public func wait(upTo seconds: Double, until script: String) throws -> Bool {
        try TestClock.wait(upTo: seconds, every: 0.05) { (try evaluate(script) as? Bool) == true }
    }

    /// The element matching `selector` (CSS), for `type` and `click`.
    public func element(_ selector: String) throws -> String {
        let found = try command("POST", "element", ["using": "css selector", "value": selector]) as? [String: Any]
        guard let id = found?.values.first as? String else { throw ServerProcessError("no element \(selector)") }
        return id
    }

    /// Types `text` into the element, as a person's keys do.
    public func type(_ text: String, into selector: String) throws {
        _ = try command("POST", "element/\(try element(selector))/value", ["text": text])
    }

    /// Clicks the element.
    public func click(_ selector: String) throws {
        _ = try command("POST", "element/\(try element(selector))/click", [:])
    }

    /// The browser console's messages since the last call (level and text).
    public func consoleMessages() throws -> [(level: String, message: String)] {
        let entries = try command("POST", "se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.map { ($0["level"] as? String ?? "", $0["message"] as? String ?? "") }
    }

    /// Saves a PNG of the window to `path`.
    public func screenshot(to path: String) throws {
        guard let base64 = try command("GET", "screenshot", nil) as? String, let data = Data(base64Encoded: base64) else {
            throw ServerProcessError("chromedriver sent no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) throws -> Any? {
        let answer = try Self.request(method, "http://127.0.0.1:\(port)/session/\(session)/\(path)", body: body)
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw ServerProcessError("WebDriver \(path): \(error): \(value["message"] as? String ?? "")")
        }
        return answer["value"].flatMap { $0 is NSNull ? nil : $0 }
    }

    /// One WebDriver request over a plain socket (`Connection: close`; chromedriver's header
    /// lines have no space after the colon, which FoundationNetworking's parser refuses).
    private static func request(_ method: String, _ url: String, body: [String: Any]?) throws -> [String: Any] {
        guard let parsed = URL(string: url), let port = parsed.port else { throw ServerProcessError("bad WebDriver URL \(url)") }
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var head = "\(method) \(parsed.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n"
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerProcessError("socket: \(String(cString: strerror(errno)))") }
        defer { closeSocket(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ServerProcessError("connect to chromedriver: \(String(cString: strerror(errno)))") }
        let request = Data(head.utf8) + payload
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, 0) }
            guard n > 0 else { throw ServerProcessError("send to chromedriver: \(String(cString: strerror(errno)))") }
            sent += n
        }
        // Read until the body holds Content-Length bytes (chromedriver keeps the connection open).
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var bodyStart: Int?
        var length: Int?
        while true {
            if let start = bodyStart, let length, answer.count - start >= length { break }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            answer.append(contentsOf: buffer[0..<n])
            if bodyStart == nil, let split = answer.range(of: Data("\r\n\r\n".utf8)) {
                bodyStart = split.upperBound - answer.startIndex
                let headers = String(decoding: answer[..<split.lowerBound], as: UTF8.self).lowercased()
                for line in headers.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        guard let start = bodyStart else { throw ServerProcessError("chromedriver sent no answer to \(url)") }
        let json = answer[(answer.startIndex + start)...]
        return (try? JSONSerialization.jsonObject(with: json) as? [String: Any]) ?? [:]
    }
}

/// `close(2)`, out of reach of `Browser.close()` inside the class.
private func closeSocket(_ fd: Int32) { close(fd) }

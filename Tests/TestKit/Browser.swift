import Foundation
import TransitRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

    /// One WebDriver request, waited for up to a minute.
    private static func request(_ method: String, _ url: String, body: [String: Any]?) throws -> [String: Any] {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 60)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let result = Locked<Result<Data, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, _, error in
            result.withLock { $0 = error.map { .failure($0) } ?? .success(data ?? Data()) }
            done.signal()
        }.resume()
        done.wait()
        let data = try result.withLock { $0! }.get()
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}

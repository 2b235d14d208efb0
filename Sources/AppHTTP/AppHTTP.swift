import Foundation

#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP exchange with a time-out: what the app's side of the server (`TransitClient`,
/// `TransitSync`) needs of HTTP.
package protocol AppHTTP: Sendable {
    /// The answer, whatever its status.
    /// - Throws: `AppHTTPUnreachable` when no answer came within `timeout` (no connection,
    ///   a connection cut, a time-out).
    func send(_ request: AppRequest, timeout: TimeInterval) async throws -> AppAnswer
}

/// A method, a URL, headers and a body.
package struct AppRequest: Sendable {
    package var method: String
    package var url: URL
    package var headers: [(String, String)]
    package var body: Data?

    package init(method: String = "GET", url: URL, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A status, headers (lowercased names) and a body.
package struct AppAnswer: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// No answer came: why.
package struct AppHTTPUnreachable: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension AppHTTP {
    /// `GET url` asking for JSON.
    package func get(_ url: URL, timeout: TimeInterval) async throws -> AppAnswer {
        try await send(AppRequest(url: url, headers: [("Accept", "application/json")]), timeout: timeout)
    }
}

/// URLSession on Apple platforms (system proxies and networks), AsyncHTTPClient on Linux
/// (as the store's transport, docs/store.md "HTTP client").
package struct DefaultAppHTTP: AppHTTP {
    /// Answers are small (a board, a plan, a page of synced changes): at most 16 MB is read.
    package static let maxBody = 16 << 20

    package init() {}

    #if canImport(AsyncHTTPClient)
        /// One client for the process, as `HTTPClient.shared`, but a refused connection fails
        /// at once instead of being tried again until the time-out: an app wants to know it is
        /// offline now (and falls back to its bundle).
        static let client: HTTPClient = {
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.timeout.connect = .seconds(5)
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
    #endif

    package func send(_ request: AppRequest, timeout: TimeInterval) async throws -> AppAnswer {
        #if canImport(AsyncHTTPClient)
            do {
                var outgoing = HTTPClientRequest(url: request.url.absoluteString)
                outgoing.method = .RAW(value: request.method)
                for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
                if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
                let response = try await Self.client.execute(outgoing, timeout: .milliseconds(Int64(timeout * 1000)))
                var headers: [String: String] = [:]
                for header in response.headers { headers[header.name.lowercased()] = header.value }
                let body = try await response.body.collect(upTo: Self.maxBody)
                return AppAnswer(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
            } catch {
                throw AppHTTPUnreachable("\(error)")
            }
        #else
            var outgoing = URLRequest(url: request.url, timeoutInterval: timeout)
            outgoing.httpMethod = request.method
            for (name, value) in request.headers { outgoing.setValue(value, forHTTPHeaderField: name) }
            outgoing.httpBody = request.body
            do {
                let (data, response) = try await URLSession.shared.data(for: outgoing)
                guard let http = response as? HTTPURLResponse else { throw AppHTTPUnreachable("not an HTTP answer") }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                return AppAnswer(status: http.statusCode, headers: headers, body: data)
            } catch let error as AppHTTPUnreachable {
                throw error
            } catch {
                throw AppHTTPUnreachable("\(error)")
            }
        #endif
    }
}

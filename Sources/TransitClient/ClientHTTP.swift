import Foundation

#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One GET with a time-out: the client's only need of HTTP.
protocol ClientHTTP: Sendable {
    /// The answer, whatever its status.
    /// - Throws: `TransitClientError.unreachable` when no answer came within `timeout`.
    func get(_ url: URL, timeout: TimeInterval) async throws -> ClientAnswer
}

/// A status, headers (lowercased names) and a body.
struct ClientAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
}

/// URLSession on Apple platforms (system proxies and networks), AsyncHTTPClient on Linux
/// (as the store's transport, docs/store.md "HTTP client").
struct DefaultClientHTTP: ClientHTTP {
    /// Answers are small (a board, a plan): at most 16 MB is read.
    static let maxBody = 16 << 20

    func get(_ url: URL, timeout: TimeInterval) async throws -> ClientAnswer {
        #if canImport(AsyncHTTPClient)
            do {
                var request = HTTPClientRequest(url: url.absoluteString)
                request.headers.add(name: "Accept", value: "application/json")
                let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
                var headers: [String: String] = [:]
                for header in response.headers { headers[header.name.lowercased()] = header.value }
                let body = try await response.body.collect(upTo: Self.maxBody)
                return ClientAnswer(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
            } catch let error as TransitClientError {
                throw error
            } catch {
                throw TransitClientError.unreachable("\(error)")
            }
        #else
            var request = URLRequest(url: url, timeoutInterval: timeout)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            do {
                let (data, response) = try await URLSession.shared.data(for: request)
                guard let http = response as? HTTPURLResponse else { throw TransitClientError.unreachable("not an HTTP answer") }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                return ClientAnswer(status: http.statusCode, headers: headers, body: data)
            } catch let error as TransitClientError {
                throw error
            } catch {
                throw TransitClientError.unreachable("\(error)")
            }
        #endif
    }
}

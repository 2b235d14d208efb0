#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL

    /// The store's transport on Linux: swift-server's AsyncHTTPClient, chosen over
    /// FoundationNetworking's URLSession by measurement (the repository's docs/store.md, "HTTP client"). It follows
    /// redirects, asks for gzip and decodes it into the file, continues partial files with
    /// Range (and If-Range), goes through the proxy of `http_proxy`/`https_proxy`, reaches IPv6
    /// literals, and verifies TLS against the system's roots plus `trustedCertificates`.
    ///
    /// Each call makes its own client and shuts it down before returning, so no connection or
    /// task outlives the call.
    ///
    /// ```swift
    /// let store = try BundleStore(directory: dir, transport: HTTPClientTransport(timeout: 15))
    /// ```
    public struct HTTPClientTransport: StoreTransport {
        /// Seconds without a byte (or to connect) before a request fails; transient, so retried.
        public var timeout: TimeInterval
        /// PEM files of certificates trusted besides the system's (a private CA).
        public var trustedCertificates: [String]
        /// Where proxies are read from (`http_proxy`, `https_proxy`, `no_proxy`).
        public var environment: [String: String]
        /// The largest manifest accepted, in bytes.
        public var maxManifestBytes = 64 << 20

        /// A transport with a time-out (seconds without a byte), extra trusted CA certificates and proxy settings.
        public init(
            timeout: TimeInterval = 30, trustedCertificates: [String] = [],
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.timeout = timeout
            self.trustedCertificates = trustedCertificates
            self.environment = environment
        }

        /// Fetches a small resource (the manifest) whole.
        public func fetch(_ url: URL) async throws -> FetchedResource {
            try await withClient(for: url) { client in
                var request = HTTPClientRequest(url: url.absoluteString)
                request.headers.add(name: "Accept-Encoding", value: ContentDecoder.accepted)
                let response = try await client.execute(request, deadline: .distantFuture)
                guard response.status.code == 200 else { throw Self.statusError(response, url) }
                let decoder = try ContentDecoder.make(for: response.headers.first(name: "Content-Encoding"), url: url)
                var data = Data()
                for try await buffer in response.body {
                    try buffer.withUnsafeReadableBytes { bytes in
                        if let decoder { try decoder.decode(bytes) { data.append(contentsOf: $0) } } else { data.append(contentsOf: bytes) }
                    }
                    guard data.count <= maxManifestBytes else {
                        throw TransportError(
                            "\(url.absoluteString) is larger than \(maxManifestBytes) bytes", transient: false, failure: .tooLarge)
                    }
                }
                return FetchedResource(data: data, url: response.url ?? url)
            }
        }

        /// A `HEAD` of `url` with a deadline of at most 5 seconds: any answer is the network
        /// being there; a time-out counts as offline here (a probe is not retried).
        public func probe(_ url: URL) async throws {
            do {
                try await withClient(for: url) { client in
                    var request = HTTPClientRequest(url: url.absoluteString)
                    request.method = .HEAD
                    let response = try await client.execute(request, timeout: .milliseconds(Int64(min(timeout, 5) * 1000)))
                    for try await _ in response.body {}
                }
            } catch let error as TransportError where error.failure == .timedOut {
                throw TransportError.offline(url, "no answer within \(Int(min(timeout, 5))) s")
            }
        }

        /// Downloads `url` into `destination`, resuming from `resumeData`, reporting bytes to `progress`.
        public func download(_ url: URL, to destination: String, resumeData: Data?, progress: @escaping @Sendable (Int64) -> Void)
            async throws -> FinishedDownload
        {
            let sink = try FileSink(appendingTo: destination)
            // The resume data is the validator of the first answer (UTF-8): the partial file
            // itself is the destination. The validator is also kept beside the partial file
            // (`ValidatorFile`) as soon as the first answer arrives, so that a process killed
            // mid-transfer (which hands back no resume data) still resumes with If-Range.
            let kept = ValidatorFile(partial: destination)
            var validator = resumeData.map { String(decoding: $0, as: UTF8.self) } ?? (sink.offset > 0 ? kept.read() : nil)
            do {
                return try await withClient(for: url) { client in
                    var rangeAllowed = true
                    while true {
                        var request = HTTPClientRequest(url: url.absoluteString)
                        if sink.offset > 0 && rangeAllowed {
                            // A range of the identity representation: it continues the decoded file.
                            request.headers.add(name: "Range", value: "bytes=\(sink.offset)-")
                            request.headers.add(name: "Accept-Encoding", value: "identity")
                            if let validator { request.headers.add(name: "If-Range", value: validator) }
                        } else {
                            request.headers.add(name: "Accept-Encoding", value: ContentDecoder.accepted)
                        }
                        let response = try await client.execute(request, deadline: .distantFuture)
                        let status = Int(response.status.code)
                        do {
                            try sink.begin(
                                status: status, contentRange: response.headers.first(name: "Content-Range"),
                                contentEncoding: response.headers.first(name: "Content-Encoding"), url: url)
                        } catch let error as TransportError where error.status == 206 {
                            // The server compressed a range anyway: ask for the whole resource.
                            rangeAllowed = false
                            continue
                        } catch let error as TransportError
                            where [503, 429].contains(error.status) || (300..<400).contains(error.status ?? 0)
                        {
                            throw Self.statusError(response, url)
                        }
                        validator = Self.validator(response.headers) ?? validator
                        if status == 200 { kept.write(validator) }
                        for try await buffer in response.body {
                            try buffer.withUnsafeReadableBytes { try sink.write($0) }
                            progress(sink.offset)
                        }
                        guard sink.bodyComplete else {
                            throw TransportError(
                                "\(url.absoluteString): the compressed body ended early", transient: true, failure: .interrupted)
                        }
                        kept.remove()
                        return FinishedDownload(url: response.url ?? url, bytesOnWire: sink.received)
                    }
                }
            } catch var error as TransportError {
                error.resumeData = validator.map { Data($0.utf8) }
                throw error
            }
        }

        /// A validator for If-Range that holds for the identity representation: Last-Modified
        /// (the same for a compressed and a plain answer), else a strong ETag of a plain answer.
        private static func validator(_ headers: HTTPHeaders) -> String? {
            if let modified = headers.first(name: "Last-Modified") { return modified }
            if headers.first(name: "Content-Encoding") == nil, let tag = headers.first(name: "ETag"), !tag.hasPrefix("W/") { return tag }
            return nil
        }

        /// Runs `body` with a client made for `url` (its proxy), shut down before returning.
        private func withClient<T: Sendable>(for url: URL, _ body: (HTTPClient) async throws -> T) async throws -> T {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
                throw TransportError("\(url.absoluteString) is not an http, https or file URL", transient: false, failure: .badURL)
            }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = trustedCertificates.map { .file($0) }
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: tls, redirectConfiguration: .follow(max: 10, allowCycles: false),
                timeout: .init(connect: .milliseconds(Int64(timeout * 1000)), read: .milliseconds(Int64(timeout * 1000))),
                decompression: .disabled)
            // The store's RetryPolicy retries, for the manifest and the files alike; a
            // certificate failure then ends the call at once instead of at the connect time-out.
            configuration.connectionPool.retryConnectionEstablishment = false
            if let proxy = ProxySettings.forURL(url, environment: environment) {
                let authorization = proxy.user.map { HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "") }
                configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
            }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            let outcome: Result<T, Error>
            do { outcome = .success(try await body(client)) } catch { outcome = .failure(error) }
            try? await client.shutdown()
            switch outcome {
            case .success(let value): return value
            case .failure(let error): throw Self.failure(error, url)
            }
        }

        /// The failure a status other than 200 stands for, with the wait a 503 or 429 asks for.
        static func statusError(_ response: HTTPClientResponse, _ url: URL) -> TransportError {
            let status = Int(response.status.code)
            // Redirects to http(s) were followed; one left is to another scheme (file:, ftp:).
            if (300..<400).contains(status), let location = response.headers.first(name: "Location") {
                return TransportError(
                    "\(url.absoluteString) redirects to \(location.prefix(200)), which is not an http or https URL: not followed",
                    transient: false, status: status, failure: .badURL)
            }
            var error = TransportError.http(status, url)
            error.retryAfter = TransportError.retryAfter(response.headers.first(name: "Retry-After"))
            return error
        }

        /// Sorts a client error into the store's: certificates, bad URLs and redirect loops are
        /// permanent; no route, no name resolution and refused connections are the device
        /// being offline; other connection and time-out failures transient.
        static func failure(_ error: Error, _ url: URL) -> Error {
            if error is TransportError || error is CancellationError { return error }
            if let offline = offlineReason(error) { return TransportError.offline(url, offline) }
            let place = url.absoluteString
            if let client = error as? HTTPClientError {
                switch client {
                case .cancelled: return CancellationError()
                case .invalidURL, .emptyHost, .emptyScheme:
                    return TransportError("\(place): \(client)", transient: false, failure: .badURL)
                case .redirectLimitReached, .redirectCycleDetected, .invalidProxyResponse, .proxyAuthenticationRequired:
                    return TransportError("\(place): \(client)", transient: false)
                case .readTimeout, .connectTimeout, .tlsHandshakeTimeout, .httpProxyHandshakeTimeout:
                    return TransportError("\(place): no answer within the time-out (\(client))", transient: true, failure: .timedOut)
                case .remoteConnectionClosed:
                    return TransportError("\(place): \(client)", transient: true, failure: .interrupted)
                default:
                    return TransportError("\(place): \(client)", transient: true)
                }
            }
            if error is NIOSSLError || error is BoringSSLError {
                return TransportError(
                    "\(place): the TLS connection failed (\(error)); the server's certificate is not trusted or does not match",
                    transient: false, failure: .tls)
            }
            if let extra = error as? NIOSSLExtraError {
                return TransportError(
                    "\(place): the server's certificate is not valid for this host (\(extra))", transient: false, failure: .tls)
            }
            return TransportError("\(place): \(error)", transient: true)
        }

        /// How the network failed when the device cannot reach the host at all, nil otherwise.
        static func offlineReason(_ error: Error) -> String? {
            let offline: Set<Int32> = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN]
            if let io = error as? IOError, offline.contains(io.errnoCode) { return String(cString: strerror(io.errnoCode)) }
            if let connection = error as? NIOConnectionError {
                if connection.dnsAError != nil && connection.dnsAAAAError != nil { return "the name \(connection.host) does not resolve" }
                let codes = connection.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
                if let code = codes.first, codes.allSatisfy(offline.contains) { return String(cString: strerror(code)) }
            }
            if error is SocketAddressError { return "the name does not resolve" }
            return nil
        }
    }
#endif

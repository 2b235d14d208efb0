import Foundation
import TransitStore

/// Timings of the store for `make bench` (bench/store.sh):
///
///     store-bench download URL BYTES   the transport alone: best of 5 downloads to a temporary file, MB/s
///     store-bench sha256 FILE          the verification hash of a file: best of 3, MB/s
///     store-bench startup DIR [N]      opening the store in DIR (start-up checks included): median and max of N
///     store-bench verify MANIFEST [N]  checking the signature of a 100-bundle manifest: median and max of N
///     store-bench local-changes DIR [N] a rider's change applied and queued in the outbox: median and p99 of N
@main
enum StoreBench {
    static func main() async {
        let args = CommandLine.arguments
        do {
            switch args.count > 2 ? args[1] : "" {
            case "download": try await download(URL(string: args[2])!, bytes: Int64(args.count > 3 ? args[3] : "0") ?? 0)
            case "sha256": try sha256(args[2])
            case "startup": try startup(args[2], args.count > 3 ? Int(args[3]) ?? 20 : 20)
            case "verify": try verify(args[2], args.count > 3 ? Int(args[3]) ?? 200 : 200)
            case "local-changes": try await localChanges(args[2], args.count > 3 ? Int(args[3]) ?? 1000 : 1000)
            default:
                print("usage: store-bench download URL BYTES | sha256 FILE | startup DIR [N] | verify MANIFEST [N] | local-changes DIR [N]")
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("store-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func download(_ url: URL, bytes: Int64) async throws {
        var transports: [any StoreTransport] = [URLSessionTransport()]
        #if canImport(AsyncHTTPClient)
            transports.insert(HTTPClientTransport(), at: 0)
        #endif
        for transport in transports {
            try await download(url, bytes: bytes, with: transport)
        }
    }

    static func download(_ url: URL, bytes: Int64, with transport: any StoreTransport) async throws {
        let path = NSTemporaryDirectory() + "/store-bench-\(getpid()).part"
        var best = Double.infinity
        var wire: Int64?
        for _ in 0..<5 {
            try? FileManager.default.removeItem(atPath: path)
            let start = DispatchTime.now().uptimeNanoseconds
            wire = try await transport.download(url, to: path, resumeData: nil) { _ in }.bytesOnWire
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        try? FileManager.default.removeItem(atPath: path)
        guard bytes == 0 || Int64(size) == bytes else { throw CocoaError(.fileReadCorruptFile) }
        print(
            "\(type(of: transport)): "
                + String(format: "%.1f MB in %.3f s = %.0f MB/s", Double(size) / 1e6, best, Double(size) / 1e6 / best)
                + (wire.map { " (\($0) bytes on the wire)" } ?? ""))
    }

    static func sha256(_ path: String) throws {
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var best = Double.infinity
        var hex = ""
        for _ in 0..<3 { best = min(best, try seconds { hex = try FileDigest.sha256(of: path) }) }
        print(String(format: "sha256 (store verification): %.0f MB/s  %@", Double(size) / 1e6 / best, hex))
    }

    static func startup(_ directory: String, _ runs: Int) throws {
        var times: [Double] = []
        var count = 0
        for _ in 0..<runs {
            times.append(
                try seconds {
                    let store = try BundleStore(directory: directory)
                    count = try blockingCount(store)
                })
        }
        times.sort()
        print(
            String(
                format: "store start-up with %d bundles: median %.2f ms, max %.2f ms (%d runs)", count, times[times.count / 2] * 1000,
                times.last! * 1000, runs))
    }

    /// The number of installed bundles, read without timing the actor hop.
    static func blockingCount(_ store: BundleStore) throws -> Int {
        let result = LockedResult()
        let done = DispatchSemaphore(value: 0)
        Task {
            result.value = (try? await store.status().count) ?? -1
            done.signal()
        }
        done.wait()
        return result.value
    }
}

final class LockedResult: @unchecked Sendable {
    var value = 0
}

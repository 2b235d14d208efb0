import Foundation
import TransitRuntime
import TransitSQLite

extension TransitBench {
    /// `transit-bench open BUNDLE [N]`: N times (default 50) the whole `TransitBundle(path:)`
    /// and the value check it runs (`BundleCheck.run`) on a connection of its own; medians
    /// and maxima in milliseconds. The first run reads the file from disk, the others from
    /// the page cache.
    static func opening(_ path: String, _ count: Int) throws {
        let n = max(1, min(count, 1_000))
        var opens: [Double] = []
        var checks: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<n {
            let start = clock.now
            _ = try TransitBundle(path: path)
            opens.append(milliseconds(clock.now - start))
            let db = try SQLiteDatabase(path: path, writable: false)
            let checkStart = clock.now
            _ = try BundleCheck.run(db)
            checks.append(milliseconds(clock.now - checkStart))
        }
        func line(_ name: String, _ values: [Double]) -> String {
            let sorted = values.sorted()
            return String(format: "%@ median %.2f ms, max %.2f ms", name, sorted[sorted.count / 2], sorted.last ?? 0)
        }
        print("open \(path) x \(n): " + line("TransitBundle(path:)", opens) + "; " + line("BundleCheck", checks))
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

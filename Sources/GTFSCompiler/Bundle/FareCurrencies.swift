import TransitSQLite

/// The bundle's currencies (`currencies`): numbered by code, each with the most decimal
/// places its amounts were written with (fares v1 prices and v2 amounts together), so
/// that every amount is an integer of units of 10^-exponent.
struct FareCurrencies {
    private var exponents: [String: Int] = [:]
    private var numbers: [String: Int] = [:]

    /// The currencies of `m`'s fares.
    init(_ m: BundleModel) {
        let amounts =
            m.fares.map { ($0.record.price, $0.record.currency) }
            + m.fareProducts.flatMap { f in
                f.data.products.map { ($0.amount, $0.currency) }
            }
        for (amount, code) in amounts { exponents[code] = max(exponents[code] ?? 0, Self.decimals(amount)) }
        for (index, code) in exponents.keys.sorted().enumerated() { numbers[code] = index + 1 }
    }

    /// The number of currency `code` (one of the model's).
    func number(of code: String) -> Int { numbers[code] ?? 0 }

    /// `amount` (digits, at most one point and a leading minus, as `FareAmount` checked it,
    /// within `FareAmount.isStorable`) in units of currency `code`.
    func units(_ amount: String, _ code: String) -> Int64 {
        let negative = amount.hasPrefix("-")
        let parts = (negative ? String(amount.dropFirst()) : amount).split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let exponent = exponents[code] ?? 0
        let value = Int64(String(parts[0]) + fraction + String(repeating: "0", count: max(0, exponent - fraction.count))) ?? 0
        return negative ? -value : value
    }

    /// Writes `currencies` (nothing for a bundle without fares).
    func insert(_ db: SQLiteDatabase) throws {
        let row = try db.prepareInsert(into: "currencies", columns: ["currency", "code", "exponent"])
        for (code, number) in numbers.sorted(by: { $0.value < $1.value }) { try row.run(number, code, exponents[code]!) }
    }

    /// The decimal places of `amount` ("6.40": 2, "3": 0), trailing zeros included.
    static func decimals(_ amount: String) -> Int {
        guard let dot = amount.firstIndex(of: ".") else { return 0 }
        return amount.distance(from: dot, to: amount.endIndex) - 1
    }
}

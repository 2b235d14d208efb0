import Foundation

/// What a journey costs by its feeds' fare rules (GTFS fares v1): the total and the fares
/// that make it up, each with the rides it covers. A journey gets one only when every ride
/// is priced, in one currency (docs/journey-semantics.md, "Fares").
///
/// `Codable` as `transit-query plan --json` writes it: `{"currency": "USD", "amount": 7.85,
/// "components": [{"feed": "bart", "fare_id": "58", "amount": 7.85, "legs": [1]}]}`.
///
/// ```swift
/// if let fare = journey.fare {
///     print(fare.amount.formatted(.currency(code: fare.currency)))
/// }
/// ```
public struct JourneyFare: Sendable, Hashable, Codable {
    /// One fare paid: a fare class of one feed and the legs (indices into `Journey.legs`,
    /// rides only) it covers.
    public struct Component: Sendable, Hashable, Codable {
        /// The feed whose fare_attributes.txt defines the fare.
        public var feedID: String
        /// fare_attributes' fare_id.
        public var fareID: String
        /// The price, in units of `currency` (2.75 is two dollars seventy-five).
        public var amount: Decimal
        /// ISO 4217 code, e.g. "USD".
        public var currency: String
        /// 0: paid on board; 1: paid before boarding.
        public var paymentMethod: Int
        /// The legs this fare covers, indices into the journey's `legs`.
        public var legs: [Int]

        /// A component built by hand (previews, tests).
        public init(feedID: String, fareID: String, amount: Decimal, currency: String, paymentMethod: Int = 0, legs: [Int]) {
            self.feedID = feedID
            self.fareID = fareID
            self.amount = amount
            self.currency = currency
            self.paymentMethod = paymentMethod
            self.legs = legs
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            feedID = try c.decode(String.self, forKey: .feedID)
            fareID = try c.decode(String.self, forKey: .fareID)
            amount = try JourneyFare.decodeAmount(c, .amount)
            currency = try c.decode(String.self, forKey: .currency)
            paymentMethod = try c.decode(Int.self, forKey: .paymentMethod)
            legs = try c.decode([Int].self, forKey: .legs)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(feedID, forKey: .feedID)
            try c.encode(fareID, forKey: .fareID)
            try c.encode(JourneyFare.number(amount), forKey: .amount)
            try c.encode(currency, forKey: .currency)
            try c.encode(paymentMethod, forKey: .paymentMethod)
            try c.encode(legs, forKey: .legs)
        }

        private enum CodingKeys: String, CodingKey {
            case feedID = "feed"
            case fareID = "fare_id"
            case amount, currency
            case paymentMethod = "payment_method"
            case legs
        }
    }

    /// ISO 4217 code of the total.
    public var currency: String
    /// The sum of the components, in units of `currency`.
    public var amount: Decimal
    /// The fares paid, in the order of the rides they start with.
    public var components: [Component]

    /// A fare built by hand (previews, tests); the amount is the components' sum.
    public init(currency: String, components: [Component]) {
        self.currency = currency
        self.amount = components.reduce(Decimal(0)) { $0 + $1.amount }
        self.components = components
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        currency = try c.decode(String.self, forKey: .currency)
        amount = try Self.decodeAmount(c, .amount)
        components = try c.decode([Component].self, forKey: .components)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(currency, forKey: .currency)
        try c.encode(Self.number(amount), forKey: .amount)
        try c.encode(components, forKey: .components)
    }

    private enum CodingKeys: String, CodingKey {
        case currency, amount, components
    }

    /// An amount as a JSON number: the shortest Double that reads back as the decimal
    /// (prices have a few digits, so 7.85 is written 7.85).
    static func number(_ amount: Decimal) -> Double { Double(amount.description) ?? 0 }

    /// An amount read from a JSON number, rounded to the decimal it was written from.
    static func decodeAmount<Key: CodingKey>(_ c: KeyedDecodingContainer<Key>, _ key: Key) throws -> Decimal {
        let value = try c.decode(Double.self, forKey: key)
        guard let amount = Decimal(string: "\(value)") else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not an amount: \(value)")
        }
        return amount
    }
}

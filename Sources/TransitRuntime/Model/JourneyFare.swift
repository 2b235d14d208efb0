import Foundation

/// What a journey costs by its feeds' fare rules (GTFS fares v1 or v2): the total and the
/// fares that make it up, each with the rides it covers. A journey gets one only when every ride
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
    /// One fare paid: a fare class (v1) or a fare product (v2, a leg's or a transfer's) of
    /// one feed and the legs (indices into `Journey.legs`, rides only) it covers.
    public struct Component: Sendable, Hashable, Codable {
        /// The feed whose fare files define the fare.
        public var feedID: String
        /// fare_attributes' fare_id (fares v1), or fare_products' fare_product_id (fares v2).
        public var fareID: String
        /// The price, in units of `currency` (2.75 is two dollars seventy-five); negative for
        /// a fares v2 discount.
        public var amount: Decimal
        /// ISO 4217 code, e.g. "USD".
        public var currency: String
        /// Fares v1: 0 paid on board, 1 paid before boarding; nil for fares v2.
        public var paymentMethod: Int?
        /// Fares v2: the product's name as riders see it.
        public var productName: String?
        /// Fares v2: the rider category the product's price is for (nil: any rider).
        public var riderCategoryID: String?
        /// Fares v2: the fare medium the price is for (nil: not given by the feed).
        public var fareMediaID: String?
        /// The legs this fare covers, indices into the journey's `legs`.
        public var legs: [Int]

        /// A component built by hand (previews, tests).
        public init(
            feedID: String, fareID: String, amount: Decimal, currency: String, paymentMethod: Int? = 0, productName: String? = nil,
            riderCategoryID: String? = nil, fareMediaID: String? = nil, legs: [Int]
        ) {
            self.feedID = feedID
            self.fareID = fareID
            self.amount = amount
            self.currency = currency
            self.paymentMethod = paymentMethod
            self.productName = productName
            self.riderCategoryID = riderCategoryID
            self.fareMediaID = fareMediaID
            self.legs = legs
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            feedID = try c.decode(String.self, forKey: .feedID)
            fareID = try c.decode(String.self, forKey: .fareID)
            amount = try JourneyFare.decodeAmount(c, .amount)
            currency = try c.decode(String.self, forKey: .currency)
            paymentMethod = try c.decodeIfPresent(Int.self, forKey: .paymentMethod)
            productName = try c.decodeIfPresent(String.self, forKey: .productName)
            riderCategoryID = try c.decodeIfPresent(String.self, forKey: .riderCategoryID)
            fareMediaID = try c.decodeIfPresent(String.self, forKey: .fareMediaID)
            legs = try c.decode([Int].self, forKey: .legs)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(feedID, forKey: .feedID)
            try c.encode(fareID, forKey: .fareID)
            try c.encode(JourneyFare.number(amount), forKey: .amount)
            try c.encode(currency, forKey: .currency)
            try c.encodeIfPresent(paymentMethod, forKey: .paymentMethod)
            try c.encodeIfPresent(productName, forKey: .productName)
            try c.encodeIfPresent(riderCategoryID, forKey: .riderCategoryID)
            try c.encodeIfPresent(fareMediaID, forKey: .fareMediaID)
            try c.encode(legs, forKey: .legs)
        }

        private enum CodingKeys: String, CodingKey {
            case feedID = "feed"
            case fareID = "fare_id"
            case amount, currency
            case paymentMethod = "payment_method"
            case productName = "product_name"
            case riderCategoryID = "rider_category_id"
            case fareMediaID = "fare_media_id"
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

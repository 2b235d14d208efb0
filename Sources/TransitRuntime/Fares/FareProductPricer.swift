import Foundation

/// Prices consecutive rides of one feed by its GTFS fares v2 (docs/journey-semantics.md,
/// "Fares v2"): each ride takes the products of the leg rules it matches (the highest
/// rule_priority when the file has the column), each change between two rides the transfer
/// rule its leg groups match, within its transfer count and duration limit; of the products
/// a ride may take, the combination that costs least wins.
struct FareProductPricer {
    /// A ride as the rules see it.
    struct Ride {
        var leg: Int
        var network: String?
        var fromAreas: Set<String>
        var toAreas: Set<String>
        /// Unix times of the boarding and the alighting.
        var boarding: Int
        var alighting: Int
    }

    /// One product a ride may take: its leg rule's group and the price for the rider.
    struct Choice {
        var legGroup: String?
        var product: FareProductTable.Product
    }

    let table: FareProductTable
    let options: FareOptions
    let feedID: String
    /// Whether timeframe group `group` holds Unix time `epoch` (its local day and time).
    let inTimeframe: (_ group: String, _ epoch: Int) -> Bool
    /// Each product's price for the rider (`FareProductTable.price(of:for:)`), worked out
    /// once per product instead of once per rule naming it (a product of 100,000 rows
    /// named by thousands of rules was a hang).
    private let prices: [String: FareProductTable.Product]

    init(table: FareProductTable, options: FareOptions, feedID: String, inTimeframe: @escaping (_ group: String, _ epoch: Int) -> Bool) {
        self.table = table
        self.options = options
        self.feedID = feedID
        self.inTimeframe = inTimeframe
        var prices: [String: FareProductTable.Product] = [:]
        for id in table.products.keys { prices[id] = table.price(of: id, for: options) }
        self.prices = prices
    }

    /// Product `id`'s price for the rider, nil when no row of it is theirs.
    private func price(of id: String) -> FareProductTable.Product? { prices[id] }

    /// At most this many combinations of products are tried; past it each ride takes its
    /// cheapest product (a ride matching several products is rare; six rides with four
    /// products each are 4,096).
    static let combinationLimit = 4_096
    /// The work one journey's fare may take: combinations x changes x transfer rules (a
    /// crafted bundle with thousands of rules must not hold a query for seconds).
    static let workLimit = 4_000_000

    /// The fare of `rides`, nil when a ride matches no rule the rider may use.
    func price(_ rides: [Ride]) -> [JourneyFare.Component]? {
        var choices: [[Choice]] = []
        for ride in rides {
            let found = self.choices(for: ride)
            guard !found.isEmpty else { return nil }
            choices.append(found)
        }
        let limit = min(Self.combinationLimit, max(1, Self.workLimit / (rides.count * (table.transferRules.count + 1))))
        let combinations = choices.reduce(1) { min($0 * $1.count, limit + 1) }
        if combinations > limit {
            choices = choices.map { [$0.min { $0.product.amount < $1.product.amount }!] }
        }
        var best: (cost: Decimal, components: [JourneyFare.Component])?
        var picked = [Int](repeating: 0, count: rides.count)
        while true {
            if let components = cost(rides, picked.enumerated().map { choices[$0.offset][$0.element] }) {
                let total = components.reduce(Decimal(0)) { $0 + $1.amount }
                if best == nil || total < best!.cost { best = (total, components) }
            }
            // The next combination, the last ride's choice turning fastest.
            var i = rides.count - 1
            while i >= 0 {
                picked[i] += 1
                if picked[i] < choices[i].count { break }
                picked[i] = 0
                i -= 1
            }
            if i < 0 { break }
        }
        return best?.components
    }

    /// The products `ride` may take: of the leg rules it matches (only those of the highest
    /// priority when the file has rule_priority), each product priced for the rider.
    func choices(for ride: Ride) -> [Choice] {
        var matched = table.legRules.filter { matches($0, ride) }
        if table.usesPriority, let top = matched.map(\.priority).max() { matched = matched.filter { $0.priority == top } }
        return matched.compactMap { rule in
            price(of: rule.product).map { Choice(legGroup: rule.legGroup, product: $0) }
        }
    }

    func matches(_ rule: FareProductTable.LegRule, _ ride: Ride) -> Bool {
        let exclusive = !table.usesPriority
        if let network = rule.network {
            guard ride.network == network else { return false }
        } else if exclusive, let network = ride.network, table.namedNetworks.contains(network) {
            return false
        }
        if let area = rule.fromArea {
            guard ride.fromAreas.contains(area) else { return false }
        } else if exclusive, !ride.fromAreas.isDisjoint(with: table.namedFromAreas) {
            return false
        }
        if let area = rule.toArea {
            guard ride.toAreas.contains(area) else { return false }
        } else if exclusive, !ride.toAreas.isDisjoint(with: table.namedToAreas) {
            return false
        }
        if let group = rule.fromTimeframe, !inTimeframe(group, ride.boarding) { return false }
        if let group = rule.toTimeframe, !inTimeframe(group, ride.alighting) { return false }
        return true
    }

    /// The components of `rides` taking `chosen`, changes processed one by one as
    /// fare_transfer_type says; nil when a transfer's product has no price for the rider.
    func cost(_ rides: [Ride], _ chosen: [Choice]) -> [JourneyFare.Component]? {
        var components = [component(chosen[0].product, legs: [rides[0].leg])]
        // The component later rides join when their own product is not paid.
        var current = 0
        // Whether the previous ride's own product is the current component, paid alone.
        var paidAlone = true
        // The run of changes under one pair of leg groups: its first ride and its length.
        var chain: (groups: [String?], first: Int, count: Int)?
        for i in 0..<(rides.count - 1) {
            let from = chosen[i].legGroup
            let to = chosen[i + 1].legGroup
            var count = 1
            var first = i
            if let chain, chain.groups == [from, to], chain.first + chain.count == i {
                count = chain.count + 1
                first = chain.first
            }
            guard let from, let to, let rule = transferRule(from: from, to: to, count: count, rides: rides[first], rides[i + 1]) else {
                // No transfer arrangement: the next ride pays its own product.
                components.append(component(chosen[i + 1].product, legs: [rides[i + 1].leg]))
                current = components.count - 1
                paidAlone = true
                chain = nil
                continue
            }
            chain = ([from, to], first, count)
            var transfer: FareProductTable.Product?
            if let id = rule.product {
                guard let found = price(of: id) else { return nil }
                transfer = found
            }
            let legs = [rides[i].leg, rides[i + 1].leg]
            switch rule.transferType {
            case 0:
                // A + AB: the next ride's product is not paid.
                if let transfer { components.append(component(transfer, legs: legs)) }
                components[current].legs.append(rides[i + 1].leg)
            case 1:
                // A + AB + B.
                if let transfer { components.append(component(transfer, legs: legs)) }
                components.append(component(chosen[i + 1].product, legs: [rides[i + 1].leg]))
                current = components.count - 1
            default:
                // AB: the transfer's product stands for both rides; the previous ride's own
                // product is not paid when it was paid alone (the first of its fare).
                if paidAlone { components.remove(at: current) }
                if let transfer {
                    components.append(component(transfer, legs: legs))
                    current = components.count - 1
                } else if paidAlone {
                    // A free AB: both rides cost nothing; they join the previous component
                    // when there is one, else a zero-priced one names the transfer.
                    components.append(
                        JourneyFare.Component(
                            feedID: feedID, fareID: "", amount: 0, currency: chosen[i].product.currency, paymentMethod: nil, legs: legs))
                    current = components.count - 1
                } else {
                    components[current].legs.append(rides[i + 1].leg)
                }
            }
            paidAlone = false
        }
        return components
    }

    /// The transfer rule for a change from a ride of group `from` to one of group `to`, the
    /// `count`-th change in a row under these groups, the run starting with ride `first`:
    /// rules naming the groups win over rules leaving them empty; of those within their
    /// transfer count and duration limit, the one with the smallest transfer count, then the
    /// cheapest.
    func transferRule(from: String, to: String, count: Int, rides first: Ride, _ last: Ride) -> FareProductTable.TransferRule? {
        let candidates = table.transferRules.filter { rule in
            if let g = rule.fromLegGroup {
                guard g == from else { return false }
            } else if table.namedFromGroups.contains(from) {
                return false
            }
            if let g = rule.toLegGroup { guard g == to else { return false } } else if table.namedToGroups.contains(to) { return false }
            let allowed = rule.transferCount ?? 1
            if allowed != -1 && count > allowed { return false }
            if let limit = rule.durationLimit {
                let start = rule.durationLimitType >= 2 ? first.alighting : first.boarding
                let end = rule.durationLimitType == 1 || rule.durationLimitType == 2 ? last.boarding : last.alighting
                if end - start > limit { return false }
            }
            return true
        }
        let order = { (rule: FareProductTable.TransferRule) -> (Int, Decimal) in
            let allowed = rule.transferCount ?? 1
            let amount = rule.product.flatMap { price(of: $0)?.amount } ?? 0
            return (allowed == -1 ? Int.max : allowed, amount)
        }
        return candidates.min { order($0) < order($1) }
    }

    private func component(_ product: FareProductTable.Product, legs: [Int]) -> JourneyFare.Component {
        JourneyFare.Component(
            feedID: feedID, fareID: product.id, amount: product.amount, currency: product.currency, paymentMethod: nil,
            productName: product.name, riderCategoryID: product.riderCategory, fareMediaID: product.medium, legs: legs)
    }
}

/// fare_attributes.txt (GTFS fares v1): each fare class's price, currency, payment method,
/// transfers and transfer duration. A row with an unusable price or currency is dropped (a
/// journey is better without a fare than with a wrong one).
enum FareAttributesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["fare_id", "price", "currency_type"]) else { return }
        let id = t.column("fare_id")
        let price = t.column("price")
        let currency = t.column("currency_type")
        let payment = t.column("payment_method")
        let transfers = t.column("transfers")
        let agency = t.column("agency_id")
        let duration = t.column("transfer_duration")
        while try t.next() {
            guard let key = t.requiredID(id, "fare_id") else { continue }
            let fareID = String(decoding: key, as: UTF8.self)
            guard let (amount, code) = FareAmount.read(t, amount: price, currency: currency, entity: fareID, signed: false, dropped: "fare")
            else { continue }
            guard FareAmount.isStorable(amount) else {
                t.warn(
                    .badValue, column: price, entity: fareID,
                    message: "the price is out of range (below a billion, at most nine decimals); fare dropped")
                continue
            }
            var aid: Int32 = -1
            if let agencyID = t.text(agency) {
                guard let found = feed.agencyIDs.find(agencyID) else {
                    t.unknownReference(
                        column: agency, to: ["agency.txt"], entity: fareID, message: "agency_id names no agency; fare dropped")
                    continue
                }
                aid = found
            }
            guard feed.fareIDs.intern(key).added else {
                t.warn(.duplicateID, column: id, entity: fareID, message: "fare_id defined twice; the first wins")
                continue
            }
            feed.fares.append(
                .init(
                    price: amount, currency: code, paymentMethod: t.integer(payment, in: 0...1, default: 0, entity: fareID),
                    // Empty: unlimited transfers.
                    transfers: t.optionalInteger(transfers, in: 0...2, entity: fareID), agency: aid,
                    transferDuration: t.optionalInteger(duration, in: 0...(366 * 86_400), entity: fareID), line: t.line))
        }
    }
}

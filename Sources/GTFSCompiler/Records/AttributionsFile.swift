/// attributions.txt: the organisations an app must credit for the data (producer, operator,
/// authority), for the whole feed or one agency, route or trip.
enum AttributionsFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["organization_name"]) else { return }
        let name = t.column("organization_name")
        let roles = ["is_producer", "is_operator", "is_authority"].map { t.column($0) }
        let agency = t.column("agency_id")
        let route = t.column("route_id")
        let trip = t.column("trip_id")
        let url = t.column("attribution_url")
        let email = t.column("attribution_email")
        let phone = t.column("attribution_phone")
        while try t.next() {
            guard let organization = t.text(name) else {
                t.warn(.missingValue, column: name, message: "organization_name is empty; row dropped")
                continue
            }
            let flags = roles.map { t.integer($0, in: 0...1, default: 0, entity: organization) }
            if !flags.contains(1) {
                t.warn(
                    .missingValue, column: roles[0], entity: organization,
                    message: "none of is_producer, is_operator, is_authority is 1; kept without a role")
            }
            var attribution = FeedData.Attribution(
                organization: organization, isProducer: flags[0] == 1, isOperator: flags[1] == 1, isAuthority: flags[2] == 1,
                url: t.text(url), email: t.text(email), phone: t.text(phone))
            if let agencyID = t.text(agency) {
                guard let found = feed.agencyIDs.find(agencyID) else {
                    t.unknownReference(
                        column: agency, to: ["agency.txt"], entity: organization, message: "agency_id names no agency; row dropped")
                    continue
                }
                attribution.agency = found
            }
            if !t.isEmpty(route) {
                guard let found = feed.routeIDs.find(t.bytes(route)) else {
                    t.unknownReference(
                        column: route, to: ["routes.txt"], entity: organization, message: "route_id names no route; row dropped")
                    continue
                }
                attribution.route = found
            }
            attribution.tripID = t.text(trip)
            if let tripID = attribution.tripID, feed.tripIDs.find(tripID) == nil {
                t.unknownReference(column: trip, to: ["trips.txt"], entity: organization, message: "trip_id names no trip; row dropped")
                continue
            }
            feed.attributions.append(attribution)
        }
    }
}

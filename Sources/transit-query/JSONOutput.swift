import Foundation
import TransitCities
import TransitRuntime

/// The JSON shapes of the command's results, with GTFS-style snake_case keys.
enum JSONOutput {
    /// A library value's `Codable` encoding (keys sorted; a nil field is left out).
    static func encoded<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number fails to encode, and the library's values have none.
        return Array((try? encoder.encode(value)) ?? Data("null".utf8))
    }

    static func write(_ d: Departure, to w: inout JSONWriter) {
        w.beginObject()
        w.field("feed", d.feedID)
        w.field("stop_id", d.stopID)
        w.field("stop_name", d.stopName)
        w.field("platform_code", d.platformCode)
        w.field("trip_id", d.tripID)
        w.field("route_id", d.routeID)
        w.field("route_short_name", d.routeShortName)
        w.field("route_long_name", d.routeLongName)
        w.field("route_type", d.routeType.rawValue)
        w.field("route_color", d.routeColor?.hex)
        w.field("route_text_color", d.routeTextColor?.hex)
        w.field("headsign", d.headsign)
        w.field("service_date", d.serviceDate.description)
        w.field("departure_secs", d.departureSecs)
        let departureTime = d.departureTime
        w.field("departure_time", departureTime)
        w.field("pickup_type", d.pickupType.rawValue)
        w.field("frequency_based", d.frequencyBased)
        w.field("wheelchair_accessible", d.wheelchairAccessible.rawValue)
        w.field("stop_sequence", d.stopSequence)
        w.field("arrival_time", d.arrivalLocal == d.departureLocal ? departureTime : d.arrivalLocal.description)
        w.field("drop_off_type", d.dropOffType.rawValue)
        w.field("timepoint", d.timepoint)
        w.field("direction_id", d.directionID)
        w.field("trip_short_name", d.tripShortName)
        w.field("agency_id", d.agencyID)
        w.field("agency_name", d.agencyName)
        w.field("bikes_allowed", d.bikesAllowed.rawValue)
        w.field("trip_start", d.tripStartLocal?.description)
        w.field("stops_remaining", d.stopsRemaining)
        w.endObject()
    }

    static func write(_ s: Stop, to w: inout JSONWriter) {
        w.beginObject()
        w.field("feed", s.feedID)
        w.field("stop_id", s.stopID)
        w.field("stop_name", s.name)
        w.field("stop_code", s.code)
        w.field("lat", s.lat)
        w.field("lon", s.lon)
        w.field("location_type", s.locationType.rawValue)
        w.field("parent_station", s.parentStation)
        w.field("platform_code", s.platformCode)
        w.field("wheelchair_boarding", s.wheelchairBoarding.rawValue)
        if let distance = s.distanceMetres { w.field("distance_m", (distance * 10).rounded() / 10) }
        w.endObject()
    }

    /// `points` as `[[lat, lon], ...]`, the order map libraries' GeoJSON readers do not use
    /// but people read coordinates in (and `stops --near` takes).
    static func write(_ s: Shape, to w: inout JSONWriter) {
        w.beginObject()
        w.field("feed", s.feedID)
        w.field("shape_id", s.shapeID)
        w.field("trip_id", s.tripID)
        w.key("points")
        w.beginArray()
        for p in s.points {
            w.beginArray()
            w.value(p.latitude)
            w.value(p.longitude)
            w.endArray()
        }
        w.endArray()
        w.endObject()
    }

    /// A city with its distance to a tenth of a metre, as stops print theirs.
    static func roundingDistance(_ city: City) -> City {
        var city = city
        city.distanceMetres = city.distanceMetres.map { ($0 * 10).rounded() / 10 }
        return city
    }

    static func writeArray<T>(_ items: [T], _ write: (T, inout JSONWriter) -> Void, to w: inout JSONWriter) {
        w.beginArray()
        for item in items { write(item, &w) }
        w.endArray()
    }
}

import BundleFormat
import Foundation
import TransitSQLite

extension TransitBundle {
    /// The part of trip `trip`'s line between its calls with stop_sequence `from` and `to`:
    /// what a journey map draws for a ride. The trip's stops up to `to` are placed on the
    /// line in order, each at the nearest point at or after the previous stop's (a line that
    /// passes a stop twice is cut at the pass the trip is on), and the line is cut at the
    /// points of `from` and `to`. A trip without a shape gives its stops `from` to `to`.
    ///
    /// ```swift
    /// let ride = journey.legs[1]
    /// let line = try bundle.shape(of: ride)   // the same, from a ride leg
    /// let part = try bundle.shape(trip: "T1", fromStopSequence: 2, toStopSequence: 5)
    /// ```
    /// - Throws: `TransitError.unknownTrip`, `.ambiguousTrip`, `.unknownFeed`; `.badArgument`
    ///   when the trip has no call with one of the stop_sequences or `to` comes before `from`.
    public func shape(trip: String, feed: String? = nil, fromStopSequence from: Int, toStopSequence to: Int) throws -> Shape {
        let whole = try shape(trip: trip, feed: feed)
        let (stops, first) = try pool.with { db -> ([Coordinate?], Int) in
            let match = try resolve(.trip, trip, feed: feed, db: db)
            let pattern = try patterns.pattern(patterns.trip(match.id, db: db).pid, db: db)
            guard let first = pattern.stops.firstIndex(where: { $0.stopSequence == from }),
                let last = pattern.stops.firstIndex(where: { $0.stopSequence == to }), first <= last
            else {
                throw TransitError.badArgument("trip \(trip) has no calls from stop_sequence \(from) to \(to), in that order")
            }
            let coordinates = try pattern.stops[...last].map { row -> Coordinate? in
                let stop = try entities.stop(row.sid, db: db)
                guard let lat = stop.lat, let lon = stop.lon else { return nil }
                return Coordinate(latitude: lat, longitude: lon)
            }
            return (coordinates, first)
        }
        var part = whole
        part.points =
            whole.shapeID == nil ? stops[first...].compactMap { $0 } : ShapeCut.part(of: whole.points, stops: stops, from: first)
        return part
    }

    /// The line a ride leg follows from its boarding stop to its alighting stop
    /// (`shape(trip:feed:fromStopSequence:toStopSequence:)`).
    ///
    /// ```swift
    /// for leg in journey.legs where leg.kind == .ride { map.draw(try bundle.shape(of: leg).points) }
    /// ```
    /// - Throws: `TransitError.badArgument` for a walk leg (draw it from its ends).
    public func shape(of leg: JourneyLeg) throws -> Shape {
        guard let boarding = leg.boarding, let alighting = leg.alighting else {
            throw TransitError.badArgument("a walk has no line in the timetable: draw it between its ends")
        }
        return try shape(
            trip: boarding.tripID, feed: boarding.feedID, fromStopSequence: boarding.stopSequence,
            toStopSequence: alighting.stopSequence)
    }
}

/// Cutting a line between two of the stops placed on it.
enum ShapeCut {
    /// A place on a line: on segment `segment` (from point `segment` to the next) at the
    /// fraction `t` of its length.
    struct Place: Comparable {
        var segment: Int
        var t: Double

        static func < (a: Place, b: Place) -> Bool { (a.segment, a.t) < (b.segment, b.t) }
    }

    /// `line` from the place of `stops[from]` to the place of the last stop, the stops placed
    /// in order (a stop without coordinates keeps the previous place).
    static func part(of line: [Coordinate], stops: [Coordinate?], from: Int) -> [Coordinate] {
        guard line.count >= 2, !stops.isEmpty else { return line }
        var place = Place(segment: 0, t: 0)
        var start = place
        for (index, stop) in stops.enumerated() {
            if let stop { place = nearest(on: line, to: stop, from: place) }
            if index == from { start = place }
        }
        var points = [point(on: line, at: start)]
        if start.segment < place.segment { points += line[(start.segment + 1)...place.segment] }
        points.append(point(on: line, at: place))
        // A stop exactly on a vertex gives that vertex twice.
        return points.enumerated().filter { $0.offset == 0 || $0.element != points[$0.offset - 1] }.map(\.element)
    }

    /// The place on `line` nearest `target` at or after `from`.
    static func nearest(on line: [Coordinate], to target: Coordinate, from: Place) -> Place {
        // Degrees as a plane around the target: east-west shrunk by the cosine of the latitude.
        let scale = cos(target.latitude * .pi / 180)
        func xy(_ c: Coordinate) -> (Double, Double) {
            ((c.longitude - target.longitude) * scale, c.latitude - target.latitude)
        }
        var best = from
        var bestDistance = Double.infinity
        for segment in from.segment..<(line.count - 1) {
            let (ax, ay) = xy(line[segment])
            let (bx, by) = xy(line[segment + 1])
            let (dx, dy) = (bx - ax, by - ay)
            let length = dx * dx + dy * dy
            var t = length > 0 ? -(ax * dx + ay * dy) / length : 0
            t = min(1, max(segment == from.segment ? from.t : 0, t))
            let (px, py) = (ax + t * dx, ay + t * dy)
            let distance = px * px + py * py
            if distance < bestDistance {
                bestDistance = distance
                best = Place(segment: segment, t: t)
            }
        }
        return best
    }

    /// The point at `place`, interpolated along the segment.
    static func point(on line: [Coordinate], at place: Place) -> Coordinate {
        let (a, b) = (line[place.segment], line[place.segment + 1])
        return Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * place.t, longitude: a.longitude + (b.longitude - a.longitude) * place.t)
    }
}

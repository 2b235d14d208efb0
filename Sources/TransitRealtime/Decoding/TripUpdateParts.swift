/// A trip update as a snapshot reads it: its trip and its stop time updates (as plain
/// values, `StopUpdate`). When the
/// update's bytes hold nothing else, swift-protobuf decodes the two parts one by one
/// (`RealtimeMessage.tripUpdateEntity(_:)`), which spares the update's own message object
/// (its storage is copied from the shared default on first write, a fifth of decoding a
/// one-stop update); otherwise the parts come from the whole decoded update. A class: the
/// parts are read, never changed, and handing them on is one reference count, not the
/// dozen of the protobuf values' fields.
///
/// ```swift
/// let parts = TripUpdateParts(update)
/// print(parts.trip.tripID, parts.stopTimeUpdates.count)
/// ```
package final class TripUpdateParts {
    package let trip: TransitRealtime_TripDescriptor
    package let stopTimeUpdates: [StopUpdate]
    /// The whole update when it was decoded whole (it may hold more than the two parts).
    private let decoded: TransitRealtime_TripUpdate?

    /// The parts of a decoded update.
    package init(_ update: TransitRealtime_TripUpdate) {
        trip = update.trip
        stopTimeUpdates = update.stopTimeUpdate.map(StopUpdate.init)
        decoded = update
    }

    /// The parts of an update that holds nothing else.
    package init(trip: TransitRealtime_TripDescriptor, stopTimeUpdates: [StopUpdate]) {
        self.trip = trip
        self.stopTimeUpdates = stopTimeUpdates
        decoded = nil
    }

    /// The update's trip-level `delay` (seconds), when it gives one (an update with one is
    /// always decoded whole).
    package var tripDelay: Int? {
        guard let decoded, decoded.hasDelay else { return nil }
        return Int(decoded.delay)
    }

    /// Whether the parts were decoded one by one (the update held nothing else).
    package var isReadByParts: Bool { decoded == nil }

    /// The update as one message (for the rarer relationships that read all of it: added,
    /// duplicated and replacement trips).
    package var whole: TransitRealtime_TripUpdate {
        if let decoded { return decoded }
        var update = TransitRealtime_TripUpdate()
        update.trip = trip
        update.stopTimeUpdate = stopTimeUpdates.map(\.message)
        return update
    }
}

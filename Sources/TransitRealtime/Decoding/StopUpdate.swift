/// A stop time update as a snapshot reads it: plain values. A swift-protobuf message value
/// holds a dozen reference-counted fields (its text, its events' and properties' unknown
/// fields and extensions), each counted again at every copy and every getter that returns
/// an event; 10,000 updates of a first message made a hundred thousand such counts.
/// `TripUpdateDecoder` makes one from bytes of the plain shape; an update of any other
/// shape is decoded by swift-protobuf and read here (`init(_:)`), its unknown fields and
/// extensions left out (no rule reads them).
///
/// ```swift
/// let update = StopUpdate(decoded)  // a TransitRealtime_TripUpdate.StopTimeUpdate
/// if update.relationship == .skipped { print("stop", update.stopSequence ?? 0, "skipped") }
/// ```
package struct StopUpdate: Sendable, Equatable {
    /// A `StopTimeEvent`: each field nil when the message does not give it.
    package struct Event: Sendable, Equatable {
        package var delay: Int32?
        package var time: Int64?
        package var uncertainty: Int32?
        package var scheduledTime: Int64?

        package init(delay: Int32? = nil, time: Int64? = nil, uncertainty: Int32? = nil, scheduledTime: Int64? = nil) {
            self.delay = delay
            self.time = time
            self.uncertainty = uncertainty
            self.scheduledTime = scheduledTime
        }
    }

    /// `StopTimeProperties`: each field nil when not given.
    package struct Properties: Sendable, Equatable {
        package typealias PickupDropOff = TransitRealtime_TripUpdate.StopTimeUpdate.StopTimeProperties.DropOffPickupType
        package var assignedStopID: String?
        package var stopHeadsign: String?
        package var pickupType: PickupDropOff?
        package var dropOffType: PickupDropOff?

        package init(
            assignedStopID: String? = nil, stopHeadsign: String? = nil, pickupType: PickupDropOff? = nil, dropOffType: PickupDropOff? = nil
        ) {
            self.assignedStopID = assignedStopID
            self.stopHeadsign = stopHeadsign
            self.pickupType = pickupType
            self.dropOffType = dropOffType
        }
    }

    package typealias Relationship = TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship

    package var stopSequence: UInt32?
    package var stopID: String?
    /// nil: the message has no arrival (an empty one given is an event with no field).
    package var arrival: Event?
    package var departure: Event?
    /// nil: not given, which the reference reads as SCHEDULED.
    package var relationship: Relationship?
    package var departureOccupancy: TransitRealtime_VehiclePosition.OccupancyStatus?
    package var properties: Properties?

    package init() {}

    /// The fields of a swift-protobuf value (its unknown fields and extensions left out).
    package init(_ update: TransitRealtime_TripUpdate.StopTimeUpdate) {
        func event(_ e: TransitRealtime_TripUpdate.StopTimeEvent) -> Event {
            Event(
                delay: e.hasDelay ? e.delay : nil, time: e.hasTime ? e.time : nil, uncertainty: e.hasUncertainty ? e.uncertainty : nil,
                scheduledTime: e.hasScheduledTime ? e.scheduledTime : nil)
        }
        stopSequence = update.hasStopSequence ? update.stopSequence : nil
        stopID = update.hasStopID ? update.stopID : nil
        arrival = update.hasArrival ? event(update.arrival) : nil
        departure = update.hasDeparture ? event(update.departure) : nil
        relationship = update.hasScheduleRelationship ? update.scheduleRelationship : nil
        departureOccupancy = update.hasDepartureOccupancyStatus ? update.departureOccupancyStatus : nil
        if update.hasStopTimeProperties {
            let p = update.stopTimeProperties
            properties = Properties(
                assignedStopID: p.hasAssignedStopID ? p.assignedStopID : nil, stopHeadsign: p.hasStopHeadsign ? p.stopHeadsign : nil,
                pickupType: p.hasPickupType ? p.pickupType : nil, dropOffType: p.hasDropOffType ? p.dropOffType : nil)
        }
    }

    /// The same as a swift-protobuf value (for the rarer trips read whole: added,
    /// duplicated and replacement ones).
    package var message: TransitRealtime_TripUpdate.StopTimeUpdate {
        func event(_ e: Event) -> TransitRealtime_TripUpdate.StopTimeEvent {
            var made = TransitRealtime_TripUpdate.StopTimeEvent()
            if let delay = e.delay { made.delay = delay }
            if let time = e.time { made.time = time }
            if let uncertainty = e.uncertainty { made.uncertainty = uncertainty }
            if let scheduledTime = e.scheduledTime { made.scheduledTime = scheduledTime }
            return made
        }
        var update = TransitRealtime_TripUpdate.StopTimeUpdate()
        if let stopSequence { update.stopSequence = stopSequence }
        if let stopID { update.stopID = stopID }
        if let arrival { update.arrival = event(arrival) }
        if let departure { update.departure = event(departure) }
        if let relationship { update.scheduleRelationship = relationship }
        if let departureOccupancy { update.departureOccupancyStatus = departureOccupancy }
        if let properties {
            var p = TransitRealtime_TripUpdate.StopTimeUpdate.StopTimeProperties()
            if let assignedStopID = properties.assignedStopID { p.assignedStopID = assignedStopID }
            if let stopHeadsign = properties.stopHeadsign { p.stopHeadsign = stopHeadsign }
            if let pickupType = properties.pickupType { p.pickupType = pickupType }
            if let dropOffType = properties.dropOffType { p.dropOffType = dropOffType }
            update.stopTimeProperties = p
        }
        return update
    }
}

// The seam between the timetable and live data: what crosses from TransitRuntime to
// TransitRealtime (package API), and what comes back. Everything that crosses is here.
//
// Out, for matching a message's trips (TransitRealtime/Matching/):
// - `TripSchedule` (TripSchedule.swift): a trip's stops on one service date as integers
//   (its tid and pid, sids, stop_sequences, offsets, pickup and drop-off), kept per trip
//   id by `tripSchedule(_:feed:on:)` and made for a whole message at once by
//   `prepareTripSchedules(_:feed:)` (TransitBundle+TripSchedules.swift);
// - `ServiceDay` (ServiceDay.swift): which services run on a date and when it starts;
// - `tripIDs(route:feed:direction:startSecs:on:)`, `sid(ofStop:feed:)`, `stopID(sid:)`,
//   `stop(sid:)`, `names(of:)`, `TripDetails.FrequencyWindow.hasInstance(startingAt:)`
//   (TransitBundle+TripLookups.swift), `FeedClock` (Calendar/FeedClock.swift).
//
// Back, for a journey on live times (Journeys/JourneyPlanner.swift):
// - `JourneyLiveData` (JourneyLiveData.swift): each matched trip instance (its
//   `TimetableTrip`: tid, start, pattern stops, as the matcher found them) with its delays
//   and skipped stops by index in its pattern, cancelled instances, and the trips the
//   message adds as routes over sids. The snapshot makes it once (`JourneyLiveData.Builder`)
//   on its first live journey; each search reads it as it is, forwards or in the mirror.
//   Boards take the snapshot itself through the public API.
//
// The numbers that cross (tid, pid, rid, sv) are typed: BundleFormat/BundleNumbers.swift.

import Foundation

/// The answer to a range query (`TransitBundle.journeyRange`): its journeys and the end of
/// the part of the window they answer for.
///
/// ```swift
/// let range = try bundle.journeyRange(
///     from: .stop("GARE_01"), to: .stop("HOPITAL"), within: 7200, options: JourneyOptions(rangeSearches: 4))
/// if !range.isComplete { print("journeys leaving before", range.endLocal) }
/// ```
public struct JourneyRange: Hashable, Sendable {
    /// Every journey leaving in `[time, end)` that no other beats on departure, arrival
    /// and rides, by departure.
    public let journeys: [Journey]
    /// The window's end; earlier when `JourneyOptions.rangeSearches` left out instants a
    /// rider could leave at: the first of them (journeys leaving then or later were not
    /// looked for).
    public let end: Date
    /// `end` on the wall clock of the origin's feed.
    public let endLocal: LocalDateTime
    /// Whether the answer is the whole window's (false when the budget left instants out).
    public let isComplete: Bool

    /// A range's answer (for a test double or a cached answer).
    public init(journeys: [Journey], end: Date, endLocal: LocalDateTime, isComplete: Bool) {
        self.journeys = journeys
        self.end = end
        self.endLocal = endLocal
        self.isComplete = isComplete
    }
}

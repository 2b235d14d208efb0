import Foundation
import TransitRealtime
import TransitRuntime
import TransitStore

// What an app around the README's code has: a folder, a progress view, a label, an alert.
// Only for compiling the README's blocks (Snippets.swift); nothing here runs.

/// The app's Application Support folder.
let appSupport = NSTemporaryDirectory()

/// A progress bar.
final class ProgressViewStub: @unchecked Sendable {
    var progress = 0.0
}

/// A text label.
final class LabelStub: @unchecked Sendable {
    var text = ""
}

let progressView = ProgressViewStub()
let statusLabel = LabelStub()

/// Shows a message to the user.
func showAlert(_ message: String) {}

// What the DocC articles' blocks take from the app around them.

/// Bytes an app fetched from a GTFS-Realtime endpoint.
let fetchedBytes = Data()
/// A banner over the board.
let banner = LabelStub()
/// Where the app keeps a bundle, and its own folders.
let bundlePath = NSTemporaryDirectory() + "/city.db"
let supportFolder = NSTemporaryDirectory()
let folder = NSTemporaryDirectory()
/// The city on screen.
let shownCity = "lisbon"

/// Shows a city's board with its bundle.
func showCity(_ bundle: TransitBundle) {}

// What a DocC article's later blocks take from its earlier ones (each block is compiled
// alone; a block that makes its own shadows these).

/// The open bundle.
let bundle = try! TransitBundle(path: bundlePath)
/// The app's store.
let store = try! BundleStore(directory: supportFolder)
/// A fetched GTFS-Realtime message.
let message = try! RealtimeMessage(data: fetchedBytes)
/// The board on screen.
let board: [Departure] = []

/// The rider's token, as the app's login keeps it (the Keychain on Apple platforms).
let riderToken = "tt_example"

/// A view an app hides and shows (the "Offline" badge).
final class BadgeStub: @unchecked Sendable {
    var isHidden = false
}

/// The "Offline" badge over the screen.
let offlineBadge = BadgeStub()
/// The storage screen's progress bar.
let bar = ProgressViewStub()

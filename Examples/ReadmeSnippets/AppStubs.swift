import Foundation

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

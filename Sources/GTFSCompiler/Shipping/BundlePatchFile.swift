import BundleFormat
import PatchEngine

/// `gtfs-compile patch OLD.db PATCH -o OUT.db`: the runtime's `PatchApplier`, with its
/// refusals as diagnostics.
public enum BundlePatchFile {
    /// Returns the new content hash.
    @discardableResult
    public static func apply(bundle: String, patch: String, output: String) throws -> String {
        do {
            return try PatchApplier.apply(bundle: bundle, patch: patch, output: output)
        } catch let refused as PatchRefused {
            throw FatalDiagnostic(.unreadableInput, file: patch, message: "patch refused: \(refused.description)")
        }
    }
}

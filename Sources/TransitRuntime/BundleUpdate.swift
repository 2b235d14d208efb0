import BundleFormat
import PatchEngine

/// Brings a bundle to a newer version with a patch from `gtfs-compile diff`, on the device.
///
/// ```swift
/// let newHash = try BundleUpdate.apply(patch: "city-v1-v2.patch", to: "city.db")
/// ```
/// The patch's checksum and starting content hash are checked, the bundle is copied beside
/// itself, the copy is changed and its content hash compared with the patch's promise, and
/// only then synced and renamed over the bundle: a crash or a refusal leaves the bundle as
/// it was. A `TransitBundle` open on the old file keeps reading it until it is closed.
public enum BundleUpdate {
    /// Applies the patch at `patchPath` to the bundle at `bundlePath`, writing `outputPath`
    /// (default: the bundle itself, replaced atomically). Returns the new content hash.
    /// - Throws: `TransitError.patchRefused` with the reason.
    @discardableResult
    public static func apply(patch patchPath: String, to bundlePath: String, output outputPath: String? = nil) throws -> String {
        do {
            return try PatchApplier.apply(bundle: bundlePath, patch: patchPath, output: outputPath ?? bundlePath)
        } catch let refused as PatchRefused {
            throw TransitError.patchRefused(refused.description)
        }
    }
}

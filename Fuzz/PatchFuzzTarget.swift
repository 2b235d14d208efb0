import BundleFormat
import Foundation
import PatchEngine
import TransitSQLite

// The patch fuzzer (`FUZZ_TARGET=patch`), part of the compiler harness that Fuzz/run.sh
// builds. Each input is a patch's sections (what follows the two content hashes in the
// file); the harness writes the header for the base bundle (FUZZ_BUNDLE: its schema and
// content hash), seals the file with its checksum, so every input passes the checks a
// patch's bytes get and reaches the applier's own, and applies it to a copy of the base.
// A refusal is fine; a trap, a hang, a blow-up, or an applied patch whose stored content
// hash is not the one its content has is a finding.

private let patchScratch = NSTemporaryDirectory() + "patch-fuzz-\(getpid())"
private let patchBase: (path: String, hash: String)? = {
    guard let path = ProcessInfo.processInfo.environment["FUZZ_BUNDLE"], let db = try? SQLiteDatabase(path: path, writable: false),
        let hash = try? ContentHash.compute(db)
    else { return nil }
    return (path, hash)
}()

func fuzzPatch(_ body: [UInt8]) {
    guard let base = patchBase else { fatalError("FUZZ_BUNDLE does not open") }
    var w = PackedWriter()
    w.append(contentsOf: BundlePatch.magic)
    w.unsigned(BundlePatch.formatVersion)
    w.unsigned(BundleSchema.version)
    for _ in 0..<2 {
        w.unsigned(base.hash.utf8.count)
        w.append(contentsOf: Array(base.hash.utf8))
    }
    w.append(contentsOf: body)
    let file = patchScratch + ".patch"
    let output = patchScratch + ".db"
    _ = FileManager.default.createFile(atPath: file, contents: Data(BundlePatch.sealed(w.bytes)))
    try? FileManager.default.removeItem(atPath: output)
    guard (try? PatchApplier.apply(bundle: base.path, patch: file, output: output)) != nil else { return }
    // Applied: the result's stored hash is its content's.
    guard let db = try? SQLiteDatabase(path: output, writable: false), let computed = try? ContentHash.compute(db) else {
        fatalError("an applied patch left a bundle that does not read")
    }
    let stored = try? db.prepare("SELECT value FROM metadata WHERE key = 'content_sha256'")
    guard let stored, (try? stored.step()) == true, stored.string(0) == computed else {
        fatalError("an applied patch stored a content hash its content does not have")
    }
}

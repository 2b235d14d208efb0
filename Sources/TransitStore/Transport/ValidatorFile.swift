import Foundation

/// The If-Range validator of a partial download, kept in a small file beside it
/// (`NAME.part.validator`), written when a whole-file answer begins and removed when the
/// download completes. A process killed mid-transfer leaves both; the next run resumes with
/// Range and If-Range, so a file that changed on the server meanwhile is sent whole instead
/// of being spliced onto the old bytes. The store's folder recovery keeps it with its
/// partial file and removes it with it.
struct ValidatorFile {
    /// What follows the partial file's name.
    static let suffix = ".validator"

    let path: String

    init(partial: String) { path = partial + Self.suffix }

    /// The validator kept, nil when there is none or it is not a plausible header value.
    func read() -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 512 else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return nil }
        return text
    }

    /// Keeps `validator` (or forgets any older one when nil). Best effort: without it a
    /// resume simply asks for the rest without If-Range, and the file's hash still decides.
    func write(_ validator: String?) {
        guard let validator else { return remove() }
        try? Data(validator.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

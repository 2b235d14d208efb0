import Foundation
import TransitSQLite

extension StoreState {
    /// One city photo of an installed bundle as recorded: kept (`file`), waiting for another
    /// attempt (`failure`), or refused for this version of the bundle (`refused`).
    struct Photo: Equatable {
        var bundleID: String
        var url: String
        var cityID: String
        var imageID: String?
        var type: String
        /// The size the catalogue lists, nil when it does not say.
        var listedBytes: Int64?
        /// The file's name in the bundle's photo folder, nil until it is kept.
        var file: String?
        var bytes: Int64
        var failure: String?
        /// Not fetched again for this version of the bundle (too large, not an image).
        var refused: Bool
    }

    func photos(of bundleID: String? = nil) throws -> [Photo] {
        let rows = try db.cached(
            """
            SELECT bundle_id, url, city_id, image_id, type, listed_bytes, file, bytes, failure, refused FROM photos
            WHERE ?1 IS NULL OR bundle_id = ?1 ORDER BY bundle_id, rowid
            """)
        rows.bind([bundleID])
        var list: [Photo] = []
        while try rows.step() {
            list.append(
                Photo(
                    bundleID: rows.string(0), url: rows.string(1), cityID: rows.string(2), imageID: rows.optionalString(3),
                    type: rows.string(4), listedBytes: rows.optionalInt(5).map(Int64.init), file: rows.optionalString(6),
                    bytes: Int64(rows.int(7)), failure: rows.optionalString(8), refused: rows.int(9) != 0))
        }
        rows.reset()
        return list
    }

    /// Bytes of the kept photos, by bundle.
    func photoBytes() throws -> [String: Int64] {
        let rows = try db.cached("SELECT bundle_id, sum(bytes) FROM photos WHERE file IS NOT NULL GROUP BY bundle_id")
        var sums: [String: Int64] = [:]
        while try rows.step() { sums[rows.string(0)] = Int64(rows.int(1)) }
        rows.reset()
        return sums
    }

    func savePhoto(_ photo: Photo) throws {
        try db.cached(
            """
            INSERT OR REPLACE INTO photos (bundle_id, url, city_id, image_id, type, listed_bytes, file, bytes, failure, refused)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run(
            photo.bundleID, photo.url, photo.cityID, photo.imageID, photo.type, photo.listedBytes.map { Int($0) }, photo.file,
            Int(photo.bytes), photo.failure, photo.refused)
    }

    func forgetPhotos(of bundleID: String?) throws {
        try db.cached("DELETE FROM photos WHERE ?1 IS NULL OR bundle_id = ?1").run(bundleID)
    }

    func forgetPhoto(of bundleID: String, url: String) throws {
        try db.cached("DELETE FROM photos WHERE bundle_id = ? AND url = ?").run(bundleID, url)
    }
}

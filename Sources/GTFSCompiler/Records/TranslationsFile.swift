import BundleFormat

/// translations.txt: names in other languages, for a record (record_id, record_sub_id) or
/// for every record whose field has a value (field_value). The fields a rider reads are
/// kept (`TranslatedField`); others are counted in one note per field. A row naming an
/// unknown record, or without language or translation, is dropped with a warning.
enum TranslationsFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["table_name", "field_name", "language", "translation"]) else { return }
        let table = t.column("table_name")
        let field = t.column("field_name")
        let language = t.column("language")
        let translation = t.column("translation")
        let record = t.column("record_id")
        let subRecord = t.column("record_sub_id")
        let value = t.column("field_value")
        var unused: [String: (rows: Int, line: Int)] = [:]
        while try t.next() {
            let name = "\(t.text(table) ?? "").\(t.text(field) ?? "")"
            guard let kind = TranslatedField(table: t.text(table) ?? "", field: t.text(field) ?? "") else {
                unused[name, default: (0, t.line)].rows += 1
                continue
            }
            guard let tag = t.text(language) else {
                t.warn(.missingValue, column: language, message: "language is empty; row dropped")
                continue
            }
            guard let canonical = LanguageTag.canonical(tag) else {
                t.warn(.badValue, column: language, message: "not a BCP 47 language tag; row dropped")
                continue
            }
            guard let text = t.text(translation) else {
                t.warn(.missingValue, column: translation, message: "translation is empty; row dropped")
                continue
            }
            let recordID = t.text(record)
            let fieldValue = t.text(value)
            guard (recordID == nil) != (fieldValue == nil) else {
                t.warn(
                    .badValue, column: recordID == nil ? value : record,
                    message: "a translation names its record by record_id or by field_value, exactly one of them; row dropped")
                continue
            }
            var row = FeedData.Translation(field: kind, language: canonical, translation: text, value: fieldValue, line: t.line)
            if let recordID {
                guard let local = localID(kind, recordID, feed) else {
                    t.unknownReference(
                        column: record, to: [kind.file], entity: recordID, message: "record_id names no record of \(kind.file); row dropped"
                    )
                    continue
                }
                row.record = local
                if kind == .stopHeadsign {
                    guard let sequence = t.text(subRecord).flatMap({ Int32($0) }) else {
                        t.warn(
                            .missingValue, column: subRecord, entity: recordID,
                            message: "a stop_headsign translation by record needs record_sub_id (the stop_sequence); row dropped")
                        continue
                    }
                    row.sequence = sequence
                }
            }
            feed.translations.append(row)
        }
        for (name, note) in unused.sorted(by: { $0.value.line < $1.value.line }) {
            t.log.add(
                Diagnostic(
                    .unusedFile, feed: t.feed, file: t.fileName, line: note.line,
                    message: "\(note.rows) translation(s) of \(name) are not used (stop, route, headsign and agency names are)"))
        }
    }

    /// The local id `recordID` names in `kind`'s file.
    private static func localID(_ kind: TranslatedField, _ recordID: String, _ feed: FeedData) -> Int32? {
        switch kind {
        case .stopName: return feed.stopIDs.find(recordID)
        case .routeShortName, .routeLongName: return feed.routeIDs.find(recordID)
        case .tripHeadsign, .stopHeadsign: return feed.tripIDs.find(recordID)
        case .agencyName: return feed.agencyIDs.find(recordID)
        }
    }
}

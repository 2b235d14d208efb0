import BundleFormat
import Foundation
import TransitJSON

/// Reads and checks a city catalogue (`schemas/city.schema.json`). Problems with one
/// city are warnings naming the JSON path; that value, link or city is dropped.
/// A file that is not a catalogue at all is an error.
enum CityCatalog {
    static func read(path: String, feedIDs: [String: Int], log: DiagnosticLog) throws -> CityModel {
        let file = URL(fileURLWithPath: path).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FatalDiagnostic(.unreadableInput, feed: "cities", file: file, message: "cannot read the city catalogue")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse([UInt8](data))
        } catch let failure as JSONParser.Failure {
            throw FatalDiagnostic(
                .badCatalogue, feed: "cities", file: file, line: failure.line, column: failure.column,
                message: "not valid JSON: \(failure.message)")
        }
        guard root["version"]?.doubleValue == 1 else {
            throw FatalDiagnostic(
                .badCatalogue, feed: "cities", file: file, field: "version", message: "the catalogue must have \"version\": 1")
        }
        guard case .array(let items)? = root["cities"] else {
            throw FatalDiagnostic(
                .badCatalogue, feed: "cities", file: file, field: "cities", message: "the catalogue must have a \"cities\" array")
        }
        var checker = Checker(file: file, log: log)
        var cities: [CityModel.City] = []
        var seen = Set<String>()
        for (index, item) in items.enumerated() {
            guard var city = checker.city(item, path: "cities[\(index)]") else { continue }
            guard seen.insert(city.id).inserted else {
                checker.warn("cities[\(index)].id", city.id, "duplicate city id; the first wins, this city is dropped")
                continue
            }
            city.index = index
            cities.append(city)
        }
        return link(cities, feedIDs: feedIDs, checker: &checker)
    }

    /// Gives cids in byte order of id and resolves relatedCities and feeds.
    private static func link(_ input: [CityModel.City], feedIDs: [String: Int], checker: inout Checker) -> CityModel {
        var model = CityModel()
        model.cities = input.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        var cidOf: [String: Int] = [:]
        for i in model.cities.indices {
            model.cities[i].cid = i + 1
            cidOf[model.cities[i].id] = i + 1
        }
        var categories = Set<String>()
        for i in model.cities.indices {
            let city = model.cities[i]
            for (j, related) in city.relatedIDs.enumerated() {
                if let cid = cidOf[related] {
                    model.cities[i].relatedCids.append(cid)
                } else {
                    checker.warn("cities[\(city.index)].relatedCities[\(j)]", related, "names no city in the catalogue; link dropped")
                }
            }
            for (j, feed) in city.feedIDs.enumerated() {
                if let fid = feedIDs[feed] {
                    if !model.cities[i].fids.contains(fid) { model.cities[i].fids.append(fid) }
                } else {
                    checker.warn("cities[\(city.index)].feeds[\(j)]", feed, "names no feed in this bundle; link dropped")
                }
            }
            categories.formUnion(city.categories)
        }
        model.categories = categories.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return model
    }
}

/// Checks the fields of one city, reporting each problem with its JSON path.
private struct Checker {
    let file: String
    let log: DiagnosticLog

    func warn(_ path: String, _ value: String?, _ message: String) {
        log.add(Diagnostic(.badCity, feed: "cities", file: file, field: path, value: value, message: message))
    }

    func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .integer(let n): return String(n)
        case .bool(let b): return String(b)
        default: return value.typeName
        }
    }

    func string(_ v: JSONValue?, _ path: String) -> String? {
        guard let v else { return nil }
        if case .null = v { return nil }
        guard case .string(let s) = v else {
            warn(path, describe(v), "expected a string, found \(v.typeName); ignored")
            return nil
        }
        return s
    }

    func number(_ v: JSONValue?, _ path: String, in range: ClosedRange<Double>) -> Double? {
        guard let v else { return nil }
        if case .null = v { return nil }
        guard let n = v.doubleValue else {
            warn(path, describe(v), "expected a number, found \(v.typeName); ignored")
            return nil
        }
        guard range.contains(n) else {
            warn(
                path, describe(v),
                "\(describe(v)) is out of range (\(describe(.number(range.lowerBound))) to \(describe(.number(range.upperBound)))); ignored"
            )
            return nil
        }
        return n
    }

    func integer(_ v: JSONValue?, _ path: String) -> Int? {
        guard let n = number(v, path, in: 0...1e12) else { return nil }
        guard n == n.rounded() else {
            warn(path, describe(.number(n)), "expected a whole number; ignored")
            return nil
        }
        return Int(n)
    }

    func strings(_ v: JSONValue?, _ path: String) -> [String] {
        guard let v else { return [] }
        guard case .array(let items) = v else {
            warn(path, nil, "expected an array of strings, found \(v.typeName); ignored")
            return []
        }
        return items.enumerated().compactMap { string($1, "\(path)[\($0)]") }
    }

    func objects(_ v: JSONValue?, _ path: String) -> [(Int, JSONValue)] {
        guard let v else { return [] }
        guard case .array(let items) = v else {
            warn(path, nil, "expected an array, found \(v.typeName); ignored")
            return []
        }
        return items.enumerated().compactMap { i, item in
            guard case .object = item else {
                warn("\(path)[\(i)]", nil, "expected an object, found \(item.typeName); ignored")
                return nil
            }
            return (i, item)
        }
    }

    mutating func city(_ item: JSONValue, path: String) -> CityModel.City? {
        guard case .object = item else {
            warn(path, nil, "expected a city object, found \(item.typeName); city dropped")
            return nil
        }
        func required(_ key: String) -> String? {
            guard let value = item[key] else {
                warn("\(path).\(key)", nil, "required field is missing; city dropped")
                return nil
            }
            guard case .string(let s) = value, !s.isEmpty else {
                warn("\(path).\(key)", describe(value), "must be a non-empty string; city dropped")
                return nil
            }
            return s
        }
        guard let id = required("id"), let name = required("name"), let country = required("country") else { return nil }
        guard country.utf8.count == 2, country.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            warn("\(path).country", country, "must be an ISO 3166-1 alpha-2 code (two capital letters); city dropped")
            return nil
        }
        guard let location = item["location"], case .object = location else {
            warn("\(path).location", nil, "required object {\"lat\", \"lng\"} is missing; city dropped")
            return nil
        }
        guard let lat = number(location["lat"], "\(path).location.lat", in: -90...90),
            let lng = number(location["lng"], "\(path).location.lng", in: -180...180)
        else {
            if location["lat"] == nil || location["lng"] == nil {
                warn("\(path).location", nil, "needs both lat and lng; city dropped")
            }
            return nil
        }
        var city = CityModel.City(id: id, name: name, country: country, lat: lat, lng: lng)
        city.countryName = string(item["countryName"], "\(path).countryName")
        if let zone = string(item["timezone"], "\(path).timezone") {
            if TimeZone(identifier: zone) != nil {
                city.timezone = zone
            } else {
                warn("\(path).timezone", zone, "not an IANA timezone; ignored")
            }
        }
        city.population = integer(item["population"], "\(path).population")
        city.alternateNames = strings(item["alternateNames"], "\(path).alternateNames").filter { name in
            if name.utf8.contains(0x0A) {
                warn("\(path).alternateNames", name, "a name cannot contain a line break; ignored")
                return false
            }
            return !name.isEmpty
        }
        city.description = string(item["description"], "\(path).description")
        city.costOfLiving = number(item["costOfLiving"], "\(path).costOfLiving", in: 0...1e7)
        city.internetSpeed = number(item["internetSpeed"], "\(path).internetSpeed", in: 0...1e6)
        city.safetyRating = number(item["safetyRating"], "\(path).safetyRating", in: 0...5)
        city.climate = string(item["climate"], "\(path).climate")
        city.categories = Array(Set(strings(item["categories"], "\(path).categories")))
        city.relatedIDs = strings(item["relatedCities"], "\(path).relatedCities")
        city.feedIDs = strings(item["feeds"], "\(path).feeds")
        for (i, a) in objects(item["touristAttractions"], "\(path).touristAttractions") {
            let at = "\(path).touristAttractions[\(i)]"
            guard let name = string(a["name"], "\(at).name") else {
                warn("\(at).name", nil, "an attraction needs a name; attraction dropped")
                continue
            }
            var attraction = CityModel.Attraction(
                id: string(a["id"], "\(at).id"), name: name, description: string(a["description"], "\(at).description"))
            if let spot = a["location"] {
                attraction.lat = number(spot["lat"], "\(at).location.lat", in: -90...90)
                attraction.lng = number(spot["lng"], "\(at).location.lng", in: -180...180)
                if attraction.lat == nil || attraction.lng == nil {
                    attraction.lat = nil
                    attraction.lng = nil
                }
            }
            city.attractions.append(attraction)
        }
        for (i, image) in objects(item["images"], "\(path).images") {
            let at = "\(path).images[\(i)]"
            guard let url = string(image["url"], "\(at).url") else {
                warn("\(at).url", nil, "an image needs a url; image dropped")
                continue
            }
            let type = string(image["type"], "\(at).type") ?? "gallery"
            guard ["hero", "gallery", "attraction"].contains(type) else {
                warn("\(at).type", type, "must be hero, gallery or attraction; image dropped")
                continue
            }
            city.images.append(
                .init(
                    id: string(image["id"], "\(at).id"), url: url, type: type, width: integer(image["width"], "\(at).width"),
                    height: integer(image["height"], "\(at).height"), size: integer(image["size"], "\(at).size")))
        }
        return city
    }
}

import Foundation
import GTFSCompiler
import TestKit

/// Feeds and versions several test targets use, written once.
package enum TestFeeds {
    package static let journeys: [String: String?] = [
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        A,Alpha,48.0,7.0
        B,Bravo,48.01,7.0
        B2,Bravo East,48.0102,7.0
        C,Charlie,48.02,7.0
        D,Delta,48.03,7.0

        """,
        "routes.txt": "route_id,route_short_name,route_type\nR1,1,3\nR2,2,3\nR3,3,3\nR4,4,3\nN,N,3\nM,M,3\n",
        "calendar_dates.txt": "service_id,date,exception_type\nSAT,20260328,1\nSUN,20260329,1\n",
        "trips.txt": """
        route_id,service_id,trip_id
        R1,D,R1a
        R2,D,R2a
        R2,D,R2b
        R3,D,R3a
        R4,D,R4a
        N,SAT,N1
        M,SUN,M1

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        R1a,08:00:00,08:00:00,A,1
        R1a,08:10:00,08:10:00,B,2
        R1a,08:20:00,08:20:00,C,3
        R2a,08:13:00,08:13:00,B,1
        R2a,08:30:00,08:30:00,D,2
        R2b,08:40:00,08:40:00,B,1
        R2b,08:57:00,08:57:00,D,2
        R3a,08:05:00,08:05:00,A,1
        R3a,09:10:00,09:10:00,D,2
        R4a,08:14:00,08:14:00,B2,1
        R4a,08:25:00,08:25:00,D,2
        N1,25:30:00,25:30:00,C,1
        N1,25:50:00,25:50:00,D,2
        M1,03:10:00,03:10:00,D,1
        M1,03:30:00,03:30:00,A,2

        """,
    ]

    /// The feed of `testTiesAreBrokenByTheTextIdsOfTripsThenStops` (also ridden on live times).
    package static let tieJourneys: [String: String?] = [
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        P,P,45.0,7.0
        Q,Q,45.1,7.0
        O,O,46.0,7.0
        X,X,46.1,7.0
        Y,Y,46.11,7.0
        D,D,46.2,7.0
        K,K,47.0,7.0
        S2,S2,47.1,7.0
        S1,S1,47.11,7.0
        E,E,47.2,7.0

        """,
        "routes.txt": "route_id,route_short_name,route_type\nRB,b,3\nRA,a,3\nR1,1,3\nR2,2,3\nR3,3,3\nR4,4,3\nRT,t,3\nRU,u,3\n",
        "trips.txt": "route_id,service_id,trip_id\nRB,D,b\nRA,D,a\nR1,D,b1\nR2,D,a1\nR3,D,a2\nR4,D,z2\nRT,D,t1\nRU,D,t2\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        b,08:00:00,08:00:00,P,1
        b,08:30:00,08:30:00,Q,2
        a,08:00:00,08:00:00,P,1
        a,08:30:00,08:30:00,Q,2
        b1,08:00:00,08:00:00,O,1
        b1,08:10:00,08:10:00,X,2
        a1,08:00:00,08:00:00,O,1
        a1,08:12:00,08:12:00,Y,2
        a2,08:20:00,08:20:00,X,1
        a2,08:40:00,08:40:00,D,2
        z2,08:20:00,08:20:00,Y,1
        z2,08:40:00,08:40:00,D,2
        t1,08:00:00,08:00:00,K,1
        t1,08:10:00,08:10:00,S2,2
        t1,08:12:00,08:12:00,S1,3
        t2,08:18:00,08:18:00,S2,1
        t2,08:20:00,08:20:00,S1,2
        t2,08:40:00,08:40:00,E,3

        """,
    ]

    /// Two agencies; route R runs S1-S2-S3 and a branch S1-S2-S4 one way, S3-S2-S1 back;
    /// route B (agency B) runs S4-S2; station ST holds S2.
    package static let routes: [String: String?] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone
        A,Agency A,https://a.example,Europe/Paris
        B,Agency B,https://b.example,Europe/Paris

        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
        S1,One,48.0,7.0,0,
        S2,Two,48.01,7.01,0,ST
        S3,Three,48.02,7.02,0,
        S4,Four,48.015,7.03,0,
        ST,Station,48.01,7.01,1,

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type,route_color
        R,A,1,One to Three,3,FF0000
        B,B,,Bee line,700,

        """,
        "trips.txt": """
        route_id,service_id,trip_id,direction_id,trip_headsign
        R,D,T1,0,Three
        R,D,T2,0,Three
        R,D,T3,0,Four
        R,D,T4,1,One
        B,D,T5,,

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:10:00,08:10:00,S2,2
        T1,08:20:00,08:20:00,S3,3
        T2,09:00:00,09:00:00,S1,1
        T2,09:10:00,09:10:00,S2,2
        T2,09:20:00,09:20:00,S3,3
        T3,10:00:00,10:00:00,S1,1
        T3,10:10:00,10:10:00,S2,2
        T3,10:25:00,10:25:00,S4,3
        T4,11:00:00,11:00:00,S3,1
        T4,11:10:00,11:10:00,S2,2
        T4,11:20:00,11:20:00,S1,3
        T5,12:00:00,12:00:00,S4,1
        T5,12:10:00,12:10:00,S2,2

        """,
    ]

    /// The fixture: SH1 (rows out of order, a repeated sequence, a bad point), SH2 running
    /// SH1 backwards and on, a trip without shape, one naming a shape shapes.txt lacks.
    package static let shapes: [String: String?] = [
        "trips.txt": """
        route_id,service_id,trip_id,shape_id
        R,D,T1,SH1
        R,D,T2,
        R,D,T3,SH2
        R,D,T4,MISSING
        R,D,T5,SH1

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:10:00,08:10:00,S2,2
        T1,08:20:00,08:20:00,S3,3
        T2,09:00:00,09:00:00,S1,1
        T2,09:10:00,09:10:00,S2,2
        T3,10:00:00,10:00:00,S3,1
        T3,10:10:00,10:10:00,S2,2
        T3,10:20:00,10:20:00,S1,3
        T4,11:00:00,11:00:00,S1,1
        T4,11:10:00,11:10:00,S2,2
        T5,12:00:00,12:00:00,S1,1
        T5,12:10:00,12:10:00,S2,2
        T5,12:20:00,12:20:00,S3,3

        """,
        "shapes.txt": """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
        SH1,48.005,7.002,2
        SH1,48.0,7.0,1
        SH1,48.02,7.02,4
        SH1,48.011,7.013,3
        SH1,48.5,7.5,3
        SH1,95,7.0,5
        SH2,48.02,7.02,10
        SH2,48.011,7.013,20
        SH2,48.005,7.002,30
        SH2,48.0,7.0,40
        SH2,47.99,6.995,50

        """,
    ]

    /// The metro sample's next version: Bellevue renamed, a stop and a trip added whose ids
    /// sort first (a fresh compile would renumber everything after them), T4_WK_0815 removed,
    /// T4_WK_0845 two minutes later.
    package static func metroNextVersion() throws -> String {
        let folder = TemporaryFolders.make()
        let metro = URL(fileURLWithPath: TestSupport.samples + "/metro")
        for name in try FileManager.default.contentsOfDirectory(atPath: metro.path) {
            var text = try String(contentsOf: metro.appendingPathComponent(name), encoding: .utf8)
            switch name {
            case "stops.txt":
                text = text.replacingOccurrences(of: "BELLEVUE,Bellevue,", with: "BELLEVUE,Bellevue Platz,")
                text += "AAA_NEW,Altstetten,47.3914,8.4889,0,,,1\n"
            case "trips.txt":
                text = text.replacingOccurrences(of: "T4,WEEK,T4_WK_0815,Tiefenbrunnen,0,1\n", with: "")
                text += "T4,WEEK,A_NEW,Zürich HB,1,1\n"
            case "stop_times.txt":
                text = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("T4_WK_0815,") }
                    .joined(separator: "\n")
                text = text.replacingOccurrences(of: "T4_WK_0845,08:45:00,08:45:00", with: "T4_WK_0845,08:47:00,08:47:00")
                    .replacingOccurrences(of: "T4_WK_0845,08:51:00,08:51:00", with: "T4_WK_0845,08:53:00,08:53:00")
                    .replacingOccurrences(of: "T4_WK_0845,09:01:00,09:01:00", with: "T4_WK_0845,09:03:00,09:03:00")
                text += "A_NEW,09:10:00,09:10:00,AAA_NEW,1,,0,0\nA_NEW,09:20:00,09:20:00,CENTRAL_1,2,,0,0\n"
            default: break
            }
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder.path
    }

    package static func compileMetro(_ feed: String, base: String? = nil) throws -> String {
        let output = TemporaryFolders.make().appendingPathComponent("metro.db").path
        var request = CompileRequest(feeds: [.init(name: "metro", path: feed)], outputPath: output)
        request.basePath = base
        _ = try Compiler.compile(request)
        return output
    }

}

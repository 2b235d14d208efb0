import Foundation

/// The great-circle distance the tests compare nearby-stop answers with, written apart from
/// the runtime's: the haversine formula on a sphere of radius 6,371,008.8 m.
public enum PlainDistance {
    public static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * r / 2), 2) + cos(lat1 * r) * cos(lat2 * r) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(a)))
    }
}

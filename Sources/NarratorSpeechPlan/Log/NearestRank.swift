/// The one percentile `replay`, `stats` and experiments report, so their figures agree: the value
/// at rank p·(n−1), rounded, of values sorted ascending; nil for none.
public enum NearestRank {
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double? {
        sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
    }
}

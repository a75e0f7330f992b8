/// The policies no other beats on both counts: lower p95 latency and fewer messages unheard.
///
/// A point dominates another when it is no worse on both axes and better on one; the front is
/// every point nothing dominates (two identical points are both on it). A point with no latency
/// (no message started) is left out: it has nothing to compare.
public enum ParetoFront {
    /// The indices of `points` on the front, ascending.
    public static func indices(_ points: [(unheard: Int, p95: Double?)]) -> [Int] {
        points.indices.filter { i in
            guard let y = points[i].p95 else { return false }
            let x = points[i].unheard
            return !points.indices.contains { j in
                guard j != i, let other = points[j].p95 else { return false }
                let ox = points[j].unheard
                return ox <= x && other <= y && (ox < x || other < y)
            }
        }
    }
}

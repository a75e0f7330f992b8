/// "Did you mean" suggestions for misspelt keys, traits, element ids and command names.
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    public static func nearest<C: Collection>(to word: String, in candidates: C) -> String?
    where C.Element == String {
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = candidate.lowercased() == lowered ? 0 : editDistance(lowered, candidate.lowercased())
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(1, min(3, (word.count + 2) / 3))
        return best.distance <= allowed ? best.name : nil
    }

    /// " (did you mean \"x\"?)" or the empty string, ready to append to a message.
    public static func hint<C: Collection>(for word: String, in candidates: C) -> String where C.Element == String {
        nearest(to: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of adjacent characters each cost one.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

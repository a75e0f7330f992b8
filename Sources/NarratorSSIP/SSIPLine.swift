/// A command line split into words on spaces, tabs and CRs (lenient about whitespace between
/// words, so a trailing "\r" or stray spaces do no harm); a bare "\n" stays part of its word, as
/// in speech-dispatcher (`SET SELF RATE 0\n` is not a number).
struct SSIPLine {
    private let scalars: String.UnicodeScalarView
    /// Each word's range in `scalars`.
    private let ranges: [Range<String.UnicodeScalarView.Index>]

    init(_ line: String) {
        scalars = line.unicodeScalars
        var ranges: [Range<String.UnicodeScalarView.Index>] = []
        var start: String.UnicodeScalarView.Index?
        var index = scalars.startIndex
        while index != scalars.endIndex {
            if Self.isSeparator(scalars[index]) {
                if let s = start { ranges.append(s..<index); start = nil }
            } else if start == nil {
                start = index
            }
            index = scalars.index(after: index)
        }
        if let s = start { ranges.append(s..<scalars.endIndex) }
        self.ranges = ranges
    }

    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r"
    }

    var count: Int { ranges.count }

    /// Word `i` as sent, or nil when the line is shorter.
    subscript(_ i: Int) -> String? {
        i < ranges.count ? String(scalars[ranges[i]]) : nil
    }

    /// Word `i` with ASCII letters lower-cased, for matching keywords, which SSIP takes in any
    /// case (ASCII only: the Kelvin sign must not make "KEY").
    func keyword(_ i: Int) -> String? {
        guard i < ranges.count else { return nil }
        var lowered = String.UnicodeScalarView()
        for scalar in scalars[ranges[i]] {
            lowered.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(truncatingIfNeeded: scalar.value + 32)) : scalar)
        }
        return String(lowered)
    }

    /// Everything from word `i` to the end of the line, inner spacing kept, trailing separators dropped.
    func rest(from i: Int) -> String? {
        guard i < ranges.count, let last = ranges.last else { return nil }
        return String(scalars[ranges[i].lowerBound..<last.upperBound])
    }
}

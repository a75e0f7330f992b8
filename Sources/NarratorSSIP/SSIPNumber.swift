/// A decimal integer as SSIP sends one: an optional "-" and ASCII digits, nothing else (no "+",
/// no spaces, no trailing "\n"). Digits beyond Int's range are kept as too high or too low, so
/// that RATE 99999999999999999999 gets "too high" rather than "not a number".
enum SSIPNumber: Hashable {
    case value(Int)
    case tooHigh
    case tooLow

    init?(_ word: String) {
        var scalars = Substring(word).unicodeScalars[...]
        let negative = scalars.first == "-"
        if negative { scalars = scalars.dropFirst() }
        guard !scalars.isEmpty else { return nil }
        var value = 0
        var overflow = false
        for scalar in scalars {
            guard ("0"..."9").contains(scalar) else { return nil }
            let digit = Int(scalar.value - 48)
            guard !overflow else { continue }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if o1 || o2 { overflow = true } else { value = sum }
        }
        self = overflow ? (negative ? .tooLow : .tooHigh) : .value(value)
    }

    /// The value when it lies in `range`, else the side it left the range by.
    func within(_ range: ClosedRange<Int>) -> Result<Int, Side> {
        switch self {
        case .value(let n) where range.contains(n): .success(n)
        case .value(let n): .failure(n > range.upperBound ? .high : .low)
        case .tooHigh: .failure(.high)
        case .tooLow: .failure(.low)
        }
    }

    enum Side: Error { case high, low }
}

/// A declarative adjustable value: the daemon changes it on increment and decrement
/// (within bounds) and derives the spoken value, so simple controls need no round trip to the app.
public struct AdjustableValue: Equatable, Sendable {
    public var value: Double
    public var min: Double?
    public var max: Double?
    public var step: Double
    public var format: ValueFormat

    public init(value: Double, min: Double? = nil, max: Double? = nil, step: Double = 1, format: ValueFormat = .number) {
        self.value = value
        self.min = min
        self.max = max
        self.step = step
        self.format = format
    }

    public enum Direction: String, Sendable, CaseIterable {
        case up, down
        /// The action name sent to an app for a non-declarative adjustable.
        public var actionName: String { self == .up ? "increment" : "decrement" }
    }

    /// The value after one step in `direction`, clamped to the bounds.
    public func adjusted(_ direction: Direction) -> AdjustableValue {
        var next = value + (direction == .up ? step : -step)
        if let max { next = Swift.min(next, max) }
        if let min { next = Swift.max(next, min) }
        // Keep repeated decimal steps from drifting (0.1 + 0.2).
        next = (next * 1e9).rounded() / 1e9
        var copy = self
        copy.value = next
        return copy
    }

    /// The value as it is spoken.
    public func spoken(decimalSeparator: String = ".") -> String {
        format.render(value, min: min, max: max, decimalSeparator: decimalSeparator)
    }
}

/// How a declarative value is spoken.
public enum ValueFormat: Equatable, Sendable {
    /// "3", "2.5".
    case number
    /// The position in the range as a percentage: min is "0%", max "100%".
    case percent
    /// Seconds as "m:ss", or "h:mm:ss" from one hour on.
    case time
    /// A template containing "{value}", e.g. "{value} of 5".
    case template(String)

    /// Parses the document spelling; `nil` for an unknown name that is not a template.
    public init?(name: String) {
        switch name {
        case "number": self = .number
        case "percent": self = .percent
        case "time": self = .time
        default:
            guard name.contains("{value}") else { return nil }
            self = .template(name)
        }
    }

    public var name: String {
        switch self {
        case .number: "number"
        case .percent: "percent"
        case .time: "time"
        case .template(let t): t
        }
    }

    public func render(_ value: Double, min: Double?, max: Double?, decimalSeparator: String = ".") -> String {
        switch self {
        case .number:
            return ValueFormat.decimal(value, separator: decimalSeparator)
        case .percent:
            guard let min, let max, max > min else { return ValueFormat.decimal(value, separator: decimalSeparator) + "%" }
            let percent = ((value - min) / (max - min) * 100).rounded()
            return ValueFormat.decimal(percent, separator: decimalSeparator) + "%"
        case .time:
            let total = Int(abs(value).rounded(.down))
            let sign = value < 0 ? "-" : ""
            let hours = total / 3600
            let minutes = (total % 3600) / 60
            let seconds = total % 60
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return hours > 0 ? "\(sign)\(hours):\(two(minutes)):\(two(seconds))" : "\(sign)\(minutes):\(two(seconds))"
        case .template(let template):
            return template.replacingAll("{value}", with: ValueFormat.decimal(value, separator: decimalSeparator))
        }
    }

    /// A number with at most two decimals and no trailing zeros: 3 -> "3", 2.50 -> "2.5".
    public static func decimal(_ value: Double, separator: String) -> String {
        let hundredths = (abs(value) * 100).rounded()
        guard hundredths < 1e17 else { return "\(value)" }
        let scaled = Int64(hundredths)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = scaled / 100
        let fraction = scaled % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        var digits = fraction < 10 ? "0\(fraction)" : "\(fraction)"
        if digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole)\(separator)\(digits)"
    }
}

extension String {
    /// Replaces every occurrence of `target` (the core avoids Foundation).
    package func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}

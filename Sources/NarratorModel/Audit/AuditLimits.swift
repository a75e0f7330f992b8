/// The thresholds behind the size rules, documented in `docs/audit.md`.
public struct AuditLimits: Equatable, Sendable {
    /// Longest spoken value, in characters: `long-value` (values are re-read on every change,
    /// so a sentence-long value is heard again and again).
    public var maxValueLength: Int
    /// Smallest width and height of an actionable stop, in points: `small-target` (Apple's and
    /// WCAG 2.5.5's 44 x 44 pt minimum).
    public var minTargetSize: Double

    public init(maxValueLength: Int = 40, minTargetSize: Double = 44) {
        self.maxValueLength = maxValueLength
        self.minTargetSize = minTargetSize
    }

    public static let `default` = AuditLimits()
}

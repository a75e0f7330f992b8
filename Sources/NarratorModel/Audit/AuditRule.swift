/// How much a finding matters: an `error` stops a VoiceOver-style user (they cannot tell what a
/// control is, cannot reach it or cannot operate it); a `warning` slows them down or misleads them.
public enum AuditSeverity: String, CaseIterable, Comparable, Sendable {
    case warning, error

    public static func < (a: AuditSeverity, b: AuditSeverity) -> Bool { a == .warning && b == .error }
}

/// The checks `narratorctl audit` runs, each with a stable id (used in `--ignore`, in the
/// document's `"audit": {"ignore": [...]}` and in reports), a fixed severity and a one-line fix.
///
/// The ids are API: CI configurations name them, so a rule is never renamed.
public enum AuditRule: String, CaseIterable, Sendable {
    case unlabelledControl = "unlabelled-control"
    case adjustableWithoutValue = "adjustable-without-value"
    case longValue = "long-value"
    case activationPointOutside = "activation-point-outside"
    case smallTarget = "small-target"
    case traitsOnCombinedChildren = "traits-on-combined-children"
    case hiddenActionable = "hidden-actionable"
    case duplicateUtterance = "duplicate-utterance"
    case emptyRotor = "empty-rotor"
    case rotorTargetMissing = "rotor-target-missing"
    case labelContainsTrait = "label-contains-trait"

    /// Rule ids, for suggestions and help.
    public static var ids: [String] { allCases.map(\.rawValue) }

    public var severity: AuditSeverity {
        switch self {
        case .unlabelledControl, .adjustableWithoutValue, .activationPointOutside, .hiddenActionable,
            .rotorTargetMissing:
            .error
        case .longValue, .smallTarget, .traitsOnCombinedChildren, .duplicateUtterance, .emptyRotor,
            .labelContainsTrait:
            .warning
        }
    }

    /// What the rule checks, in one line (for `narratorctl help audit` and the docs).
    public var summary: String {
        switch self {
        case .unlabelledControl: "a control (button, link, image, toggle, adjustable, check box, radio button, combo box, text field, menu item) without a label"
        case .adjustableWithoutValue: "an adjustable stop with no value and no declarative range"
        case .longValue: "a spoken value longer than the limit (values are re-read on every change)"
        case .activationPointOutside: "an activation point outside its frame, or a frame outside its parent's"
        case .smallTarget: "an actionable stop smaller than the minimum touch target"
        case .traitsOnCombinedChildren: "children of a combine element with traits the wrapper lacks"
        case .hiddenActionable: "a hidden subtree holding actionable elements; a hidden or empty modal node"
        case .duplicateUtterance: "two stops of one tree that speak exactly the same text"
        case .emptyRotor: "a custom rotor with no targets"
        case .rotorTargetMissing: "a rotor target that is not a reachable focus stop"
        case .labelContainsTrait: "a label that repeats its trait word (\"Play button, button\")"
        }
    }

    /// The usual fix, in one line.
    public var fix: String {
        switch self {
        case .unlabelledControl: "give it a short label that names what it does (\"Share\", not \"button\")"
        case .adjustableWithoutValue: "add an \"adjustable\" range or keep \"value\" updated with the current setting"
        case .longValue: "keep the value short (\"3 of 5\"); move explanations to the hint"
        case .activationPointOutside: "move the activation point (or the frame) inside the element's bounds"
        case .smallTarget: "grow the frame (or the hit area it describes) to at least the minimum size"
        case .traitsOnCombinedChildren: "move the traits to the combine wrapper; children lose theirs when combined"
        case .hiddenActionable: "hide only decoration; remove controls from the tree instead of hiding a container"
        case .duplicateUtterance: "make the labels distinct (\"Delete message from Ann\") or combine the elements"
        case .emptyRotor: "leave the rotor out while it has no targets"
        case .rotorTargetMissing: "name only ids of visible focus stops, and update the rotor when they change"
        case .labelContainsTrait: "drop the trait word from the label; Narrator speaks the trait itself"
        }
    }
}

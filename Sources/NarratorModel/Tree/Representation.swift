/// A standard control that a node is exposed as, instead of itself
/// (SwiftUI's `accessibilityRepresentation`): a custom waveform exposed as a slider.
public struct Representation: Equatable, Sendable {
    public enum Control: String, CaseIterable, Sendable {
        case slider, stepper, button, toggle, link

        /// The traits the control brings.
        public var traits: Traits {
            switch self {
            case .slider, .stepper: Traits(.adjustable)
            case .button: Traits(.button)
            case .toggle: Traits(.toggle)
            case .link: Traits(.link)
            }
        }
    }

    public var control: Control
    public var label: String?
    public var value: String?
    /// For a toggle: whether it is on.
    public var isOn: Bool?
    /// For a slider or stepper: the declarative range the daemon adjusts itself.
    public var adjustable: AdjustableValue?

    public init(
        control: Control, label: String? = nil, value: String? = nil, isOn: Bool? = nil,
        adjustable: AdjustableValue? = nil
    ) {
        self.control = control
        self.label = label
        self.value = value
        self.isOn = isOn
        self.adjustable = adjustable
    }
}

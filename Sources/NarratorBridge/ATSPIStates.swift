/// An AT-SPI2 state set (`AtspiStateType` bits), as toolkits send it over D-Bus: two 32-bit
/// words, the low one first.
public struct ATSPIStates: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    init(bit: Int) {
        rawValue = 1 << UInt64(bit)
    }

    /// The set as the cache's `GetItems` and `GetState` return it: `[low, high]`.
    public init(words: [UInt32]) {
        let low = UInt64(words.first ?? 0), high = UInt64(words.count > 1 ? words[1] : 0)
        rawValue = low | high << 32
    }

    public static let active = ATSPIStates(bit: 1)
    public static let armed = ATSPIStates(bit: 2)
    public static let busy = ATSPIStates(bit: 3)
    public static let checked = ATSPIStates(bit: 4)
    public static let collapsed = ATSPIStates(bit: 5)
    public static let defunct = ATSPIStates(bit: 6)
    public static let editable = ATSPIStates(bit: 7)
    public static let enabled = ATSPIStates(bit: 8)
    public static let expandable = ATSPIStates(bit: 9)
    public static let expanded = ATSPIStates(bit: 10)
    public static let focusable = ATSPIStates(bit: 11)
    public static let focused = ATSPIStates(bit: 12)
    public static let hasTooltip = ATSPIStates(bit: 13)
    public static let horizontal = ATSPIStates(bit: 14)
    public static let iconified = ATSPIStates(bit: 15)
    public static let modal = ATSPIStates(bit: 16)
    public static let multiLine = ATSPIStates(bit: 17)
    public static let multiselectable = ATSPIStates(bit: 18)
    public static let opaque = ATSPIStates(bit: 19)
    public static let pressed = ATSPIStates(bit: 20)
    public static let resizable = ATSPIStates(bit: 21)
    public static let selectable = ATSPIStates(bit: 22)
    public static let selected = ATSPIStates(bit: 23)
    public static let sensitive = ATSPIStates(bit: 24)
    public static let showing = ATSPIStates(bit: 25)
    public static let singleLine = ATSPIStates(bit: 26)
    public static let stale = ATSPIStates(bit: 27)
    public static let transient = ATSPIStates(bit: 28)
    public static let vertical = ATSPIStates(bit: 29)
    public static let visible = ATSPIStates(bit: 30)
    public static let managesDescendants = ATSPIStates(bit: 31)
    public static let indeterminate = ATSPIStates(bit: 32)
    public static let required = ATSPIStates(bit: 33)
    public static let truncated = ATSPIStates(bit: 34)
    public static let animated = ATSPIStates(bit: 35)
    public static let invalidEntry = ATSPIStates(bit: 36)
    public static let supportsAutocompletion = ATSPIStates(bit: 37)
    public static let selectableText = ATSPIStates(bit: 38)
    public static let isDefault = ATSPIStates(bit: 39)
    public static let visited = ATSPIStates(bit: 40)
    public static let checkable = ATSPIStates(bit: 41)
    public static let hasPopup = ATSPIStates(bit: 42)
    public static let readOnly = ATSPIStates(bit: 43)
}

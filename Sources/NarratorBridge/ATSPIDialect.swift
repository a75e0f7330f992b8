/// Which toolkit's AT-SPI2 an application speaks, read from its `Application.ToolkitName` and
/// `ToolkitVersion`: the toolkits say the same facts in different words (GTK 4 never reports
/// `enabled`, nor `showing` below its window, and names a widget without a label after its
/// class; a web page keeps what is scrolled away `visible` but not `showing`), and the mapping
/// reads each in its own.
public enum ATSPIDialect: String, Equatable, Sendable {
    /// GTK 3 through atk-bridge (and what speaks like it: LibreOffice's GTK 3 plugin).
    case gtk3
    /// GTK 4's own AT-SPI2 implementation (gnome-calculator).
    case gtk4
    case qt
    /// Firefox.
    case gecko
    /// A toolkit not known here: read as GTK 3.
    case other

    public init(toolkit name: String, version: String) {
        switch name.lowercased() {
        case "gtk": self = version.hasPrefix("4") ? .gtk4 : .gtk3
        case "qt": self = .qt
        case "gecko": self = .gecko
        default: self = .other
        }
    }

    /// Whether the toolkit reports `showing` on what is on show below a window (GTK 4 does not,
    /// and keeps a closed popover `visible`: only its 0 x 0 size says it is not on show).
    var reportsShowing: Bool { self != .gtk4 }

    /// Whether the toolkit names a widget without a label after its class ("GtkButton",
    /// "AdwGizmo") and doubles a label's text in a button's name ("4 4").
    var namesByClass: Bool { self == .gtk4 }

    /// Whether an insertion into a multi-line text (a GtkTextView) is reported `length`
    /// characters before where it went, with the caret as it was before it. GTK 4 reports both
    /// from its buffer's `insert-text` handler, which runs before the text goes in, as the
    /// iterator's offset minus the length: typing "12" into gnome-calculator's empty display
    /// reports "1" at -1, then "2" at 0 and the caret at 1. Its entries report from after the
    /// insertion, rightly.
    var reportsTextViewInsertionsEarly: Bool { self == .gtk4 }
}

import NarratorDBus
/// One question the AT-SPI bridge asks an application over D-Bus while reading it
/// (``ATSPIApplicationRead``), with the D-Bus call that asks it. Pure data: the bridge sends every
/// request at once and hands back the replies, so a read costs a few round trips, not one per
/// property.
public enum ATSPIRequest: Hashable, Sendable {
    /// The whole application in one reply: `org.a11y.atspi.Cache.GetItems` (GTK; Qt 5 answers an
    /// empty list).
    case items
    case name(String)
    case description(String)
    /// Every `Accessible` property in one `GetAll` (name, description, child count, attributes):
    /// how a Gecko object is walked, one question where there were three or four.
    case properties(String)
    case role(String)
    case states(String)
    case interfaces(String)
    case children(String)
    case relations(String)
    case extents(String)
    case actions(String)
    case text(String)
    /// The first selection of a text (its start and end offsets): GTK selects a field's text as it
    /// takes the focus.
    case selection(String)
    /// Where a text's caret is (`Text.CaretOffset`; -1 where it has none).
    case caret(String)
    /// The object's attributes (`a{ss}`), for a text field's placeholder.
    case attributes(String)
    case value(String, ValueField)
    /// A table's row for one of its children's index in it (`Table.GetRowAtIndex`; -1 for a
    /// column header), its number of rows (`NRows`), and an object's number of children: where
    /// a lazily read row stands in its list.
    case rowAtIndex(String, Int)
    case rowCount(String)
    case childCount(String)
    /// The application's toolkit and its version (`Application.ToolkitName`, `Version`),
    /// asked of its root: which dialect of AT-SPI2 it speaks.
    case toolkitName
    case toolkitVersion

    /// The Value interface's properties, each its own `Get` (Qt 5 drops off the bus when asked
    /// `GetAll`).
    public enum ValueField: String, CaseIterable, Hashable, Sendable {
        case current = "CurrentValue", minimum = "MinimumValue", maximum = "MaximumValue", increment = "MinimumIncrement"
    }

    /// The object path the request goes to.
    public var path: String {
        switch self {
        case .items: return "/org/a11y/atspi/cache"
        case .toolkitName, .toolkitVersion: return ATSPIApplicationRead.root
        case .name(let p), .description(let p), .properties(let p), .role(let p), .states(let p), .interfaces(let p), .children(let p), .relations(let p),
            .extents(let p), .actions(let p), .text(let p), .selection(let p), .caret(let p), .attributes(let p), .value(let p, _),
            .rowAtIndex(let p, _), .rowCount(let p), .childCount(let p):
            return p
        }
    }

    /// Interface, method and arguments of the D-Bus call.
    public var call: DBusCall {
        let accessible = "org.a11y.atspi.Accessible"
        func property(_ interface: String, _ name: String) -> DBusCall {
            DBusCall(path: path, interface: "org.freedesktop.DBus.Properties", method: "Get", arguments: [.string(interface), .string(name)])
        }
        switch self {
        case .items: return DBusCall(path: path, interface: "org.a11y.atspi.Cache", method: "GetItems")
        case .name: return property(accessible, "Name")
        case .description: return property(accessible, "Description")
        case .properties:
            return DBusCall(path: path, interface: "org.freedesktop.DBus.Properties", method: "GetAll", arguments: [.string(accessible)])
        case .role: return DBusCall(path: path, interface: accessible, method: "GetRole")
        case .states: return DBusCall(path: path, interface: accessible, method: "GetState")
        case .interfaces: return DBusCall(path: path, interface: accessible, method: "GetInterfaces")
        case .children: return DBusCall(path: path, interface: accessible, method: "GetChildren")
        case .relations: return DBusCall(path: path, interface: accessible, method: "GetRelationSet")
        // Coordinates relative to the screen (ATSPI_COORD_TYPE_SCREEN).
        case .extents: return DBusCall(path: path, interface: "org.a11y.atspi.Component", method: "GetExtents", arguments: [.uint32(0)])
        case .actions: return DBusCall(path: path, interface: "org.a11y.atspi.Action", method: "GetActions")
        case .text: return DBusCall(path: path, interface: "org.a11y.atspi.Text", method: "GetText", arguments: [.int32(0), .int32(-1)])
        case .selection: return DBusCall(path: path, interface: "org.a11y.atspi.Text", method: "GetSelection", arguments: [.int32(0)])
        case .caret: return property("org.a11y.atspi.Text", "CaretOffset")
        case .attributes: return DBusCall(path: path, interface: accessible, method: "GetAttributes")
        case .value(_, let field): return property("org.a11y.atspi.Value", field.rawValue)
        case .rowAtIndex(_, let index):
            return DBusCall(path: path, interface: "org.a11y.atspi.Table", method: "GetRowAtIndex", arguments: [.int32(Int32(clamping: index))])
        case .rowCount: return property("org.a11y.atspi.Table", "NRows")
        case .childCount: return property(accessible, "ChildCount")
        case .toolkitName: return property("org.a11y.atspi.Application", "ToolkitName")
        case .toolkitVersion: return property("org.a11y.atspi.Application", "Version")
        }
    }
}

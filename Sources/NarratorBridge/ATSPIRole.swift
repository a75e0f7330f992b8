/// An AT-SPI2 role (`AtspiRole`), by the number toolkits send over D-Bus: what kind of object
/// an accessible is. Only the roles Narrator maps are named here; any other number is kept as it
/// came (and read as a container), so a toolkit newer than this table still mirrors.
public struct ATSPIRole: Hashable, Sendable, CustomStringConvertible {
    public let code: UInt32

    public init(code: UInt32) {
        self.code = code
    }

    public static let alert = ATSPIRole(code: 2)
    public static let animation = ATSPIRole(code: 3)
    public static let checkBox = ATSPIRole(code: 7)
    public static let checkMenuItem = ATSPIRole(code: 8)
    public static let colorChooser = ATSPIRole(code: 9)
    public static let columnHeader = ATSPIRole(code: 10)
    public static let comboBox = ATSPIRole(code: 11)
    public static let dialog = ATSPIRole(code: 16)
    public static let fileChooser = ATSPIRole(code: 19)
    public static let filler = ATSPIRole(code: 20)
    public static let fontChooser = ATSPIRole(code: 22)
    public static let frame = ATSPIRole(code: 23)
    public static let icon = ATSPIRole(code: 26)
    public static let image = ATSPIRole(code: 27)
    public static let label = ATSPIRole(code: 29)
    public static let list = ATSPIRole(code: 31)
    public static let listItem = ATSPIRole(code: 32)
    public static let menu = ATSPIRole(code: 33)
    public static let menuBar = ATSPIRole(code: 34)
    public static let menuItem = ATSPIRole(code: 35)
    public static let pageTab = ATSPIRole(code: 37)
    public static let pageTabList = ATSPIRole(code: 38)
    public static let panel = ATSPIRole(code: 39)
    public static let passwordText = ATSPIRole(code: 40)
    public static let popupMenu = ATSPIRole(code: 41)
    public static let progressBar = ATSPIRole(code: 42)
    public static let pushButton = ATSPIRole(code: 43)
    public static let radioButton = ATSPIRole(code: 44)
    public static let radioMenuItem = ATSPIRole(code: 45)
    public static let rowHeader = ATSPIRole(code: 47)
    public static let scrollBar = ATSPIRole(code: 48)
    public static let scrollPane = ATSPIRole(code: 49)
    public static let separator = ATSPIRole(code: 50)
    public static let slider = ATSPIRole(code: 51)
    public static let spinButton = ATSPIRole(code: 52)
    public static let statusBar = ATSPIRole(code: 54)
    public static let table = ATSPIRole(code: 55)
    public static let tableCell = ATSPIRole(code: 56)
    public static let tableColumnHeader = ATSPIRole(code: 57)
    public static let tableRowHeader = ATSPIRole(code: 58)
    public static let tearoffMenuItem = ATSPIRole(code: 59)
    public static let text = ATSPIRole(code: 61)
    public static let toggleButton = ATSPIRole(code: 62)
    public static let toolBar = ATSPIRole(code: 63)
    public static let toolTip = ATSPIRole(code: 64)
    public static let tree = ATSPIRole(code: 65)
    public static let treeTable = ATSPIRole(code: 66)
    public static let unknown = ATSPIRole(code: 67)
    public static let viewport = ATSPIRole(code: 68)
    public static let window = ATSPIRole(code: 69)
    public static let header = ATSPIRole(code: 71)
    public static let footer = ATSPIRole(code: 72)
    public static let paragraph = ATSPIRole(code: 73)
    public static let application = ATSPIRole(code: 75)
    public static let entry = ATSPIRole(code: 79)
    public static let caption = ATSPIRole(code: 81)
    public static let documentFrame = ATSPIRole(code: 82)
    public static let section = ATSPIRole(code: 85)
    public static let form = ATSPIRole(code: 87)
    public static let heading = ATSPIRole(code: 83)
    public static let link = ATSPIRole(code: 88)
    public static let tableRow = ATSPIRole(code: 90)
    public static let treeItem = ATSPIRole(code: 91)
    public static let documentWeb = ATSPIRole(code: 95)
    public static let listBox = ATSPIRole(code: 98)
    public static let blockQuote = ATSPIRole(code: 105)
    public static let article = ATSPIRole(code: 109)
    public static let landmark = ATSPIRole(code: 110)
    public static let grouping = ATSPIRole(code: 99)
    public static let notification = ATSPIRole(code: 101)
    public static let infoBar = ATSPIRole(code: 102)
    public static let levelBar = ATSPIRole(code: 103)
    public static let titleBar = ATSPIRole(code: 104)
    public static let `static` = ATSPIRole(code: 116)
    public static let pushButtonMenu = ATSPIRole(code: 129)

    /// AT-SPI's own name for the role ("push button"), as `atspi_role_get_name` gives it.
    public var description: String { Self.names[code] ?? "role \(code)" }

    static let names: [UInt32: String] = [
        2: "alert",
        3: "animation",
        7: "check box",
        8: "check menu item",
        9: "color chooser",
        10: "column header",
        11: "combo box",
        16: "dialog",
        19: "file chooser",
        20: "filler",
        22: "font chooser",
        23: "frame",
        26: "icon",
        27: "image",
        29: "label",
        31: "list",
        32: "list item",
        33: "menu",
        34: "menu bar",
        35: "menu item",
        37: "page tab",
        38: "page tab list",
        39: "panel",
        40: "password text",
        41: "popup menu",
        42: "progress bar",
        43: "push button",
        44: "radio button",
        45: "radio menu item",
        47: "row header",
        48: "scroll bar",
        49: "scroll pane",
        50: "separator",
        51: "slider",
        52: "spin button",
        54: "status bar",
        55: "table",
        56: "table cell",
        57: "table column header",
        58: "table row header",
        59: "tearoff menu item",
        61: "text",
        62: "toggle button",
        63: "tool bar",
        64: "tool tip",
        65: "tree",
        66: "tree table",
        67: "unknown",
        68: "viewport",
        69: "window",
        71: "header",
        72: "footer",
        73: "paragraph",
        75: "application",
        79: "entry",
        81: "caption",
        82: "document frame",
        85: "section",
        87: "form",
        83: "heading",
        88: "link",
        90: "table row",
        91: "tree item",
        95: "document web",
        98: "list box",
        105: "block quote",
        109: "article",
        110: "landmark",
        99: "grouping",
        101: "notification",
        102: "info bar",
        103: "level bar",
        104: "title bar",
        116: "static",
        129: "push button menu",
    ]
}

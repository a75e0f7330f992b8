@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// AT-SPI2 objects as GTK and Qt expose them (roles, states, names, relations, values, actions,
/// extents: the shapes of atspi.md), mapped to Narrator trees and read the way a user hears them.
@Suite struct ATSPIMappingTests {
    static let shown: ATSPIStates = [.enabled, .sensitive, .showing, .visible]

    static func object(
        _ number: Int, _ role: ATSPIRole, _ name: String = "", states: ATSPIStates = shown, extents: Rect? = nil,
        actions: [String] = [], value: ATSPIValue? = nil, text: String? = nil, labelledBy: [Int] = [], description: String = "",
        children: [AccessibleSnapshot] = []
    ) -> AccessibleSnapshot {
        AccessibleSnapshot(
            path: "/org/a11y/atspi/accessible/\(number)", role: role, name: name, description: description, states: states,
            extents: extents, actions: actions, value: value, text: text,
            labelledBy: labelledBy.map { "/org/a11y/atspi/accessible/\($0)" }, children: children)
    }

    /// A small GTK3 window: the controls of the bridge's fixture app.
    static let window = object(
        1, .frame, "Narrator fixture", extents: Rect(x: 100, y: 50, width: 400, height: 300),
        children: [
            object(
                2, .filler,
                children: [
                    object(3, .pushButton, "Save", extents: Rect(x: 110, y: 60, width: 80, height: 30), actions: ["click"], description: "Saves the story"),
                    object(4, .checkBox, "Remember me", states: shown.union([.checked, .focusable]), actions: ["click"]),
                    object(5, .label, "Name"),
                    object(6, .text, states: shown.union([.editable, .focusable, .singleLine]), actions: ["activate"], text: "Ada", labelledBy: [5]),
                    // GTK describes a scale by its value.
                    object(7, .slider, "Volume", value: ATSPIValue(current: 40, minimum: 0, maximum: 100, increment: 1), description: "40"),
                    // GTK puts each notebook page inside its tab; the page not shown is not "showing".
                    object(
                        8, .pageTabList,
                        children: [
                            object(
                                9, .pageTab, "General", states: shown.union([.selected, .selectable]),
                                children: [object(11, .pushButton, "General settings", actions: ["click"])]),
                            object(
                                10, .pageTab, "Advanced", states: shown.union(.selectable),
                                children: [object(12, .pushButton, "Advanced settings", states: [.enabled, .sensitive, .visible])]),
                        ]),
                    object(13, .toggleButton, "Shuffle", states: shown.union(.pressed), actions: ["click"]),
                    object(14, .progressBar, "Copying", value: ATSPIValue(current: 40, minimum: 0, maximum: 100, increment: 0)),
                    object(15, .comboBox, "Font", states: shown.union(.expandable), actions: ["press"]),
                    // GTK 3 clears both enabled and sensitive on a widget that cannot be used.
                    object(16, .pushButton, "Print", states: [.showing, .visible], actions: ["click"]),
                ]),
        ])

    func utterances(_ document: TreeDocument) -> [String] {
        let tree = AccessibilityTree(document: document)
        return (0..<tree.stops.count).map { tree.utterance(atStop: $0).text }
    }

    @Test("a GTK window reads as a user would want it: names, labels, states, values and positions")
    func fixtureWindow() {
        let document = ATSPIMapping.document(window: Self.window, application: "fixture")
        #expect(document.name == "fixture: Narrator fixture")
        #expect(document.title == "Narrator fixture")
        #expect(utterances(document) == [
            "Save, button",
            "Remember me, checked, check box",
            "Name, Ada, text field",
            "Volume, 40, adjustable",
            "selected, General, tab, 1 of 2",
            "Advanced, tab, 2 of 2",
            "General settings, button",
            "Shuffle, on, switch button",
            "Copying, 40%, progress bar",
            "Font, combo box",
            "Print, button, dimmed",
        ])
        let tree = AccessibilityTree(document: document)
        #expect(tree.utterance(atStop: 0).hint == "Saves the story")
        #expect(tree.utterance(atStop: 3).hint == nil, "the slider's description is its value")
    }

    @Test("two paragraphs of a page are two stops; words around an inline element are one")
    func paragraphsStayParagraphs() {
        let embedded = "\u{FFFC}"
        // A section holding two paragraphs (its own text only the two objects), and a paragraph
        // whose sentence holds an emphasised word.
        let page = Self.object(1, .documentWeb, "Page", children: [
            Self.object(2, .section, text: embedded + embedded, children: [
                Self.object(3, .paragraph, text: "First paragraph here."),
                Self.object(4, .paragraph, text: "Second paragraph here."),
            ]),
            Self.object(5, .paragraph, text: "The end of the " + embedded + " page.", children: [Self.object(6, .static, text: "test")]),
        ])
        let said = utterances(ATSPIMapping.document(window: Self.object(9, .frame, "W", children: [page]), application: "a"))
        #expect(said == ["First paragraph here.", "Second paragraph here.", "The end of the test page."], "\(said)")
    }

    @Test("a closed select is one stop, its label, its role and the option chosen; opened, its options are read")
    func aSelectIsALabelledComboBox() {
        func select(_ states: ATSPIStates) -> AccessibleSnapshot {
            let options = ["Dinghy", "Keelboat", "Catamaran"].enumerated().map { index, name in
                Self.object(20 + index, .menuItem, name, states: index == 1 ? Self.shown.union([.selected]) : Self.shown)
            }
            return Self.object(1, .documentWeb, "Page", children: [
                Self.object(5, .label, "Boat class"),
                Self.object(6, .comboBox, states: Self.shown.union(states).union([.focusable]), labelledBy: [5], children: [
                    Self.object(7, .menu, children: options)
                ]),
            ])
        }
        func said(_ page: AccessibleSnapshot) -> [String] { utterances(ATSPIMapping.document(window: Self.object(9, .frame, "W", children: [page]), application: "a")) }
        #expect(said(select([.collapsed])) == ["Boat class, Keelboat, combo box"])
        #expect(said(select([.expanded])).contains("selected, Keelboat, menu item"))
    }

    @Test("a field's selected text is said with it: typing replaces it")
    func selectedText() {
        func entry(_ text: String, _ selection: TextRange?, role: ATSPIRole = .text) -> AccessibleSnapshot {
            var field = Self.object(6, role, states: Self.shown.union([.editable, .focusable, .singleLine]), text: text, labelledBy: [5])
            field.selection = selection
            return Self.object(1, .frame, "W", children: [Self.object(5, .label, "Name"), field])
        }
        func said(_ window: AccessibleSnapshot) -> [String] { utterances(ATSPIMapping.document(window: window, application: "a")) }
        #expect(said(entry("Ada", TextRange(location: 0, length: 3))) == ["Name, Ada, selected, text field"])
        #expect(said(entry("Ada Lovelace", TextRange(location: 4, length: 8))) == ["Name, Ada Lovelace, Lovelace selected, text field"])
        #expect(said(entry("Ada", nil)) == ["Name, Ada, text field"])
        // A password's text is not read, nor is what of it is selected.
        #expect(said(entry("secret", TextRange(location: 0, length: 6), role: .passwordText)) == ["Name, text field"])
    }

    @Test("frames are placed in the parent's space, and a hidden widget's extents give no frame")
    func frames() {
        let document = ATSPIMapping.document(window: Self.window, application: "fixture")
        #expect(document.root.frame == Rect(x: 100, y: 50, width: 400, height: 300))
        // The filler has no extents: its children are placed in the window's space.
        #expect(document.root.children[0].children[0].frame == Rect(x: 10, y: 10, width: 80, height: 30))
        #expect(document.root.children[0].children[1].frame == nil)
        let offscreen = Self.object(
            1, .frame, "W", extents: Rect(x: 0, y: 0, width: 100, height: 100),
            children: [Self.object(2, .pushButton, "Gone", extents: Rect(x: -2_147_483_648, y: -2_147_483_648, width: 0, height: 0))])
        #expect(ATSPIMapping.document(window: offscreen, application: "a").root.children[0].frame == nil)
    }

    @Test("the default action is what activate does; the others are named actions")
    func actions() {
        #expect(ATSPIMapping.defaultAction(in: ["click"]) == "click")
        #expect(ATSPIMapping.defaultAction(in: ["SetFocus", "Press"]) == "Press")
        #expect(ATSPIMapping.defaultAction(in: ["expand or contract", "activate"]) == "activate")
        #expect(ATSPIMapping.defaultAction(in: ["SetFocus", "ShowMenu"]) == "ShowMenu")
        #expect(ATSPIMapping.defaultAction(in: []) == nil)
        let row = Self.object(20, .treeItem, "Photos", actions: ["activate", "expand or contract", "SetFocus"], children: [])
        let document = ATSPIMapping.document(window: Self.object(1, .frame, "W", children: [row]), application: "a")
        #expect(document.root.children[0].actions == ["expand or contract"])
        #expect(AccessibilityTree(document: document).utterance(atStop: 0).hint == "actions available")
    }

    @Test("a dialog is modal and says it is one when focus enters it")
    func dialog() {
        let question = Self.object(
            1, .dialog, "Question", states: Self.shown.union([.modal, .active]),
            children: [
                Self.object(2, .filler, children: [
                    // zenity's dialog, as GTK exposes it: its stock icon is named after the dialog.
                    Self.object(6, .icon, "Question"),
                    Self.object(3, .label, "Delete photo?"),
                    Self.object(4, .pushButton, "No", actions: ["click"]),
                    Self.object(5, .pushButton, "Yes", actions: ["click"]),
                ]),
            ])
        let document = ATSPIMapping.document(window: question, application: "zenity")
        #expect(document.name == "zenity: Question")
        #expect(document.title == "Question, dialog")
        #expect(document.root.modal)
        #expect(utterances(document) == ["Delete photo?", "No, button", "Yes, button"])
    }

    struct StateExample: Sendable, CustomTestStringConvertible {
        let role: ATSPIRole
        let extra: ATSPIStates
        let spoken: String
        var testDescription: String { "\(role) → \(spoken)" }
    }

    static let stateExamples = [
        StateExample(role: .checkBox, extra: .indeterminate, spoken: "Select all, partially checked, check box"),
        StateExample(role: .checkBox, extra: [], spoken: "Select all, not checked, check box"),
        StateExample(role: .radioButton, extra: .checked, spoken: "Select all, checked, radio button"),
        StateExample(role: .checkMenuItem, extra: .checked, spoken: "Select all, checked, check box, menu item"),
        StateExample(role: .listItem, extra: [.selected, .selectable], spoken: "selected, Select all, list item"),
        StateExample(role: .treeItem, extra: [.expandable, .expanded], spoken: "Select all, list item, expanded"),
        StateExample(role: .menu, extra: .expandable, spoken: "Select all, menu, collapsed"),
        StateExample(role: .pushButton, extra: .focusable, spoken: "Select all, button"),
    ]

    @Test("states become Narrator's words", arguments: stateExamples)
    func states(_ example: StateExample) {
        let window = Self.object(1, .frame, "W", children: [Self.object(2, example.role, "Select all", states: Self.shown.union(example.extra))])
        #expect(utterances(ATSPIMapping.document(window: window, application: "a")) == [example.spoken])
    }

    @Test("a control neither enabled nor sensitive is dimmed (GTK 4 says only sensitive); text that cannot be edited is read, not typed into")
    func dimmedAndReadOnly() {
        let window = Self.object(
            1, .frame, "W",
            children: [
                Self.object(2, .pushButton, "Undo", states: [.showing, .visible]),
                Self.object(5, .pushButton, "Redo", states: [.sensitive, .showing, .visible]),
                Self.object(3, .text, "Licence", states: Self.shown.union(.multiLine), text: "MIT"),
                Self.object(4, .passwordText, "Password", states: Self.shown.union(.editable), text: "secret"),
            ])
        #expect(utterances(ATSPIMapping.document(window: window, application: "a")) == ["Undo, button, dimmed", "Redo, button", "Licence", "Password, text field"])
    }

    @Test("a list row without a name is read by what it shows")
    func namelessRowCombinesItsChildren() {
        let window = Self.object(
            1, .frame, "W",
            children: [
                Self.object(2, .list, children: [
                    Self.object(3, .listItem, children: [Self.object(4, .label, "Inbox"), Self.object(5, .label, "12 unread")]),
                ]),
            ])
        #expect(utterances(ATSPIMapping.document(window: window, application: "a")) == ["Inbox, 12 unread, list item"])
    }

    @Test("windows are named by application and title, each name unique")
    func treeNames() {
        #expect(ATSPIMapping.treeName(application: "gedit", window: "Untitled", taken: []) == "gedit: Untitled")
        #expect(ATSPIMapping.treeName(application: "gedit", window: "", taken: []) == "gedit")
        #expect(ATSPIMapping.treeName(application: "gedit", window: "Untitled", taken: ["gedit: Untitled", "gedit: Untitled (2)"]) == "gedit: Untitled (3)")
        #expect(ATSPIMapping.id(of: "/org/a11y/atspi/accessible/root") == "root")
        #expect(ATSPIMapping.id(of: "/com/example/7") == "/com/example/7")
    }

    @Test("every document the mapping makes is one the daemon takes")
    func documentsRoundTrip() throws {
        let document = ATSPIMapping.document(window: Self.window, application: "fixture")
        let text = TreeDocumentEncoder.json(document).compactText
        #expect(try TreeDocumentDecoder().decode(text: text) == document)
    }

    @Test("AT-SPI role and state numbers are the library's")
    func numbers() {
        #expect(ATSPIRole.pushButton.code == 43 && ATSPIRole.pushButton.description == "push button")
        #expect(ATSPIRole(code: 999).description == "role 999")
        #expect(ATSPIStates.showing.rawValue == 1 << 25)
        // States 32 and up are in the second word: checkable is 41.
        #expect(ATSPIStates(words: [1 << 25, 1 << 9]) == [.showing, .checkable])
    }

    @Test("a field with no name and no label is called by its placeholder, as Orca calls it")
    func placeholderNamesAField() {
        // GTK's entry with an icon inside it: the icon is part of the field.
        var search = Self.object(
            3, .text, states: Self.shown.union([.editable, .focusable, .singleLine]), children: [Self.object(4, .icon, "view-refresh-symbolic", description: "Change mode")])
        search.placeholder = "Click icon to change mode"
        var named = search
        named.name = "Mode"
        var empty = search
        empty.placeholder = nil
        let window = Self.object(1, .frame, "W", children: [Self.object(2, .filler, children: [search])])
        #expect(utterances(ATSPIMapping.document(window: window, application: "a")) == ["Click icon to change mode, text field"])
        let own = Self.object(1, .frame, "W", children: [Self.object(2, .filler, children: [named])])
        #expect(utterances(ATSPIMapping.document(window: own, application: "a")) == ["Mode, text field"])
        let none = Self.object(1, .frame, "W", children: [Self.object(2, .filler, children: [empty])])
        #expect(utterances(ATSPIMapping.document(window: none, application: "a")) == ["unlabelled, text field"])
    }

    @Test("whatever a toolkit reports, the document is one the daemon takes, and each oddity is named")
    func oddValuesAreMappedNotRefused() throws {
        var tab = Self.object(5, .pageTab, "sample2.txt", extents: Rect(x: -1, y: -1, width: -1, height: -1))
        tab.actions = ["activate", "", "close", "close"]
        var field = Self.object(6, .text, states: Self.shown.union([.editable, .multiLine]), text: "abc")
        field.selection = TextRange(location: 2, length: 9)
        var row = Self.object(8, .listItem, "Row")
        row.position = SetPosition(index: 0, count: 3)
        let long = String(repeating: "x", count: 5000)
        let window = Self.object(
            1, .frame, "Mousepad\tx", extents: Rect(x: 0, y: 0, width: .nan, height: 10),
            children: [
                tab, field, row,
                Self.object(7, .slider, "Odd", value: ATSPIValue(current: 150, minimum: 100, maximum: 0, increment: -1)),
                Self.object(9, .pushButton, long),
                // The same object under two parents (a toolkit's cache lists it twice).
                Self.object(10, .panel, children: [Self.object(9, .pushButton, "again")]),
            ])
        let (document, oddities) = ATSPIMapping.mapped(window: window, application: "mousepad")
        let text = TreeDocumentEncoder.json(document).compactText
        let decoded = try TreeDocumentDecoder().decode(text: text)
        #expect(decoded == document)
        #expect(document.name == "mousepad: Mousepad x")
        let said = oddities.map(\.description)
        #expect(said == [
            "element 1 (frame): extents [0, 0, nan, 10] are no rectangle; it has no frame",
            "element 5 (page tab): extents [-1, -1, -1, -1] are no rectangle; it has no frame",
            "element 5 (page tab): an action has no name; it is left out",
            "element 5 (page tab): the action \"close\" is listed twice; it is offered once",
            "element 6 (text): its selection [2, 9] is outside its text; it is left out",
            "element 8 (list item): its place 0 of 3 is not in the set; it is left out",
            "element 7 (slider): its value 150 is not within 100...0; it is kept within them",
            "element 9 (push button): its name has 5000 characters; the first 4096 are kept",
            "element 9 (push button): it is listed under two parents; it is read once, where it came first",
            "element 1 (frame): its name holds a control character; a space stands for it in the tree's name",
        ], "\(said)")
        let tree = AccessibilityTree(document: document)
        #expect(tree.node("7")?.adjustable == AdjustableValue(value: 100, min: 0, max: 100, step: 5))
    }

    @Test("an editor's text longer than a name may be is kept whole as the field's value, up to the value's own limit")
    func longTextIsAValue() throws {
        let text = String(repeating: "line of text\n", count: 1000)
        let field = Self.object(2, .text, states: Self.shown.union([.editable, .multiLine, .focusable]), text: text)
        let (document, oddities) = ATSPIMapping.mapped(window: Self.object(1, .frame, "Editor", children: [field]), application: "e")
        #expect(oddities.isEmpty)
        #expect(document.root.children[0].value == text)
        #expect(try TreeDocumentDecoder().decode(text: TreeDocumentEncoder.json(document).compactText) == document)
        let (cut, odd) = ATSPIMapping.mapped(
            window: Self.object(1, .frame, "Editor", children: [field]), application: "e", limits: DocumentLimits(maxValueLength: 100))
        #expect(cut.root.children[0].value == String(text.prefix(4096)), "never shorter than a name may be")
        #expect(odd.map(\.description) == ["element 2 (text): its value has 13000 characters; the first 4096 are kept"])
    }

    @Test("GTK 4 (gnome-calculator) reads as its buttons show: no class names, no doubled names, no stops inside a button, a closed popover hidden")
    func gtk4Calculator() {
        let gtk4: ATSPIStates = [.sensitive, .visible]
        let button: ATSPIStates = gtk4.union(.focusable)
        func label(_ n: Int, _ text: String) -> AccessibleSnapshot {
            var l = Self.object(n, .label, text, states: gtk4, extents: Rect(x: 0, y: 0, width: 55, height: 40))
            l.text = text
            return l
        }
        let window = Self.object(
            1, .frame, "Calculator", states: [.active, .sensitive, .showing, .visible], extents: Rect(x: 0, y: 0, width: 355, height: 486),
            children: [
                Self.object(
                    2, .panel, states: gtk4, extents: Rect(x: 0, y: 0, width: 355, height: 486),
                    children: [
                        // The display: named after its class.
                        Self.object(3, .text, "GtkSourceView", states: gtk4.union([.editable, .focusable, .multiLine]), extents: Rect(x: 0, y: 166, width: 343, height: 32), text: "12"),
                        Self.object(4, .pushButton, "4 4", states: button, extents: Rect(x: 16, y: 336, width: 55, height: 40), actions: ["click"], labelledBy: [5], children: [label(5, "4")]),
                        Self.object(6, .pushButton, "GtkButton", states: button, extents: Rect(x: 284, y: 240, width: 55, height: 40), actions: ["click"], description: "Pi [Ctrl+P]", children: [label(7, "π")]),
                        Self.object(8, .pushButton, "GtkImage", states: button, extents: Rect(x: 16, y: 240, width: 55, height: 40), actions: ["click"], description: "Clear Display [Escape]"),
                        // A menu button holds the button that takes the focus.
                        Self.object(
                            9, .pushButton, "GtkMenuButton", states: gtk4, extents: Rect(x: 105, y: 6, width: 78, height: 34), description: "Mode selection",
                            children: [Self.object(10, .pushButton, "Basic", states: button, extents: Rect(x: 114, y: 11, width: 60, height: 24), actions: ["click"], labelledBy: [11], children: [label(11, "Basic")])]),
                        // A closed popover: visible, 0 x 0.
                        Self.object(12, .panel, "GtkPopoverMenu", states: [.sensitive, .vertical, .visible], extents: Rect(x: 201, y: 6, width: 0, height: 0), children: [
                            Self.object(13, .menuItem, "New Window", states: button, extents: Rect(x: 201, y: 6, width: 0, height: 0)),
                        ]),
                    ]),
            ])
        let document = ATSPIMapping.document(window: window, application: "gnome-calculator", dialect: .gtk4)
        #expect(utterances(document) == ["unlabelled, 12, text field", "4, button", "π, button", "Clear Display [Escape], button", "Basic, button"], "\(utterances(document))")
        let tree = AccessibilityTree(document: document)
        #expect(tree.utterance(atStop: 2).hint == "Pi [Ctrl+P]")
        #expect(tree.utterance(atStop: 3).hint == nil, "the description is its name")
        // GTK 3 keeps its own words: a name is a name.
        #expect(utterances(ATSPIMapping.document(window: window, application: "a", dialect: .gtk3)).contains("GtkImage, button, dimmed") == false)
        #expect(ATSPIDialect(toolkit: "GTK", version: "4.8.3") == .gtk4)
        #expect(ATSPIDialect(toolkit: "gtk", version: "3.24.38") == .gtk3)
        #expect(ATSPIDialect(toolkit: "Gecko", version: "153.8.0") == .gecko)
        #expect(ATSPIDialect(toolkit: "Qt", version: "5.15.8") == .qt)
    }

    @Test("a web page's content scrolled out of view is still there to read: visible, not showing, is not hidden")
    func webContentOffScreen() {
        let offScreen: ATSPIStates = [.enabled, .sensitive, .visible, .focusable]
        let window = Self.object(
            1, .frame, "Page — Mozilla Firefox",
            children: [
                Self.object(2, .documentWeb, "Page", states: Self.shown, children: [
                    Self.object(3, .heading, "Welcome"),
                    Self.object(4, .link, "Far below", states: offScreen, extents: Rect(x: 48, y: 38148, width: 100, height: 19)),
                ]),
                // Outside the page, not showing is hidden as ever.
                Self.object(5, .pushButton, "Hidden", states: offScreen),
            ])
        #expect(utterances(ATSPIMapping.document(window: window, application: "Firefox", dialect: .gecko)) == ["Welcome, heading", "Far below, link"])
    }

    @Test("a web page's table carries its size and name, and each cell its place and header kind, from the snapshot alone")
    func webTableStructure() throws {
        let window = Self.object(
            1, .frame, "Page — Mozilla Firefox",
            children: [
                Self.object(2, .documentWeb, "Page", children: [
                    Self.object(3, .table, children: [
                        Self.object(4, .caption, text: "Race schedule"),
                        Self.object(5, .tableRow, children: [Self.object(6, .columnHeader, "Race"), Self.object(7, .columnHeader, "Start")]),
                        // A row group (a section) between the table and its rows.
                        Self.object(8, .section, children: [
                            Self.object(9, .tableRow, children: [Self.object(10, .rowHeader, "Dinghies"), Self.object(11, .tableCell, text: "9:00")]),
                            Self.object(12, .tableRow, children: [Self.object(13, .rowHeader, "Keelboats"), Self.object(14, .tableCell, text: "10:30"), Self.object(15, .tableCell, text: "8")]),
                        ]),
                    ]),
                ]),
            ])
        let document = ATSPIMapping.document(window: window, application: "Firefox", dialect: .gecko)
        let nodes = Dictionary(uniqueKeysWithValues: AccessibilityTree(document: document).nodes.map { ($0.id, $0) })
        #expect(nodes["3"]?.table == TableSize(rows: 3, columns: 3))
        #expect(nodes["3"]?.label == "Race schedule")
        #expect(nodes["7"]?.tableCell == TableCell(row: 0, column: 1) && nodes["7"]?.cellHeader == .column)
        #expect(nodes["10"]?.tableCell == TableCell(row: 1, column: 0) && nodes["10"]?.cellHeader == .row)
        #expect(nodes["15"]?.tableCell == TableCell(row: 2, column: 2) && nodes["15"]?.cellHeader == nil)
        #expect(nodes["4"]?.tableCell == nil)
        // Cells stay stops, read as today with the header's role.
        #expect(utterances(document) == ["Race schedule", "Race, column header", "Start, column header", "Dinghies, row header", "9:00", "Keelboats, row header", "10:30", "8"])
    }
}

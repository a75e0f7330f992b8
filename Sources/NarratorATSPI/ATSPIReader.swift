import CAtspi
import NarratorBridge
import NarratorModel

/// Reads an application's accessibles from AT-SPI2 into ``AccessibleSnapshot``s the naive way:
/// with libatspi, one blocking D-Bus call per property and object. The bridge reads in bulk
/// instead (``ApplicationReader``); this walk is what `narrator-atspi dump --walk` and the
/// benchmark compare it with. libatspi is not thread-safe: one thread makes every call.
///
/// Ownership follows libatspi's rules: strings it returns are freed with `g_free`, objects
/// (children, interfaces, state sets, relations, targets) are unreferenced with `g_object_unref`,
/// errors freed with `g_error_free`.
public struct ATSPIReader {
    /// At most this deep: a tree deeper than any toolkit builds is cut rather than followed forever.
    public var maximumDepth = 64

    public init() {}

    /// Connects libatspi to the accessibility bus (found from `DBUS_SESSION_BUS_ADDRESS`, or
    /// the X root window's `AT_SPI_BUS`); false when it could not.
    public static func connect() -> Bool {
        // 0 is success, 1 already initialized; anything else is a failure.
        let status = atspi_init()
        return status == 0 || status == 1
    }

    /// The applications on the desktop, by name, with their top-level windows; with `named`, only
    /// that application's windows are walked (the others are listed without theirs).
    public func applications(named only: String? = nil) -> [(name: String, windows: [AccessibleSnapshot])] {
        guard let desktop = atspi_get_desktop(0) else { return [] }
        defer { g_object_unref(desktop) }
        return children(of: desktop).map { application in
            defer { g_object_unref(application) }
            let name = string(atspi_accessible_get_name(application, nil))
            guard only == nil || name == only else { return (name, []) }
            let windows = children(of: application).map { window in
                defer { g_object_unref(window) }
                return snapshot(window, depth: 0)
            }
            return (name, windows)
        }
    }

    /// `accessible` and its subtree.
    public func snapshot(_ accessible: UnsafeMutablePointer<AtspiAccessible>, depth: Int) -> AccessibleSnapshot {
        var snapshot = AccessibleSnapshot(
            path: narrator_atspi_path(accessible).map { String(cString: $0) } ?? "",
            role: ATSPIRole(code: UInt32(atspi_accessible_get_role(accessible, nil).rawValue)),
            name: string(atspi_accessible_get_name(accessible, nil)),
            description: string(atspi_accessible_get_description(accessible, nil)),
            states: states(of: accessible))
        snapshot.extents = extents(of: accessible)
        snapshot.actions = actions(of: accessible)
        snapshot.value = value(of: accessible)
        if snapshot.states.contains(.editable) || snapshot.role == .text || snapshot.role == .entry {
            snapshot.text = text(of: accessible)
            snapshot.selection = selection(of: accessible)
            snapshot.placeholder = attribute("placeholder-text", of: accessible)
        } else if snapshot.name.isEmpty, ATSPIMapping.textRoles.contains(snapshot.role) {
            snapshot.text = text(of: accessible)
        }
        if snapshot.role == .heading { snapshot.level = attribute("level", of: accessible).flatMap { Int($0) } }
        // A page's landmark says its kind, and a live region its setting, in attributes.
        if [.landmark, .form, .section, .list, .paragraph, .blockQuote].contains(snapshot.role) {
            let found = attributes(["xml-roles", "live"], of: accessible)
            snapshot.xmlRoles = found["xml-roles"]
            snapshot.live = found["live"]
        }
        snapshot.labelledBy = labelledBy(accessible)
        if depth < maximumDepth, !snapshot.states.contains(.managesDescendants) {
            snapshot.children = children(of: accessible).map { child in
                defer { g_object_unref(child) }
                return self.snapshot(child, depth: depth + 1)
            }
        }
        return snapshot
    }

    /// The children, each a reference the caller releases.
    func children(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> [UnsafeMutablePointer<AtspiAccessible>] {
        let count = atspi_accessible_get_child_count(accessible, nil)
        guard count > 0 else { return [] }
        return (0..<count).compactMap { atspi_accessible_get_child_at_index(accessible, $0, nil) }
    }

    func states(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> ATSPIStates {
        guard let set = atspi_accessible_get_state_set(accessible) else { return [] }
        defer { g_object_unref(set) }
        var states: UInt64 = 0
        for bit in 1..<Int(ATSPI_STATE_LAST_DEFINED.rawValue) where atspi_state_set_contains(set, AtspiStateType(UInt32(bit))) != 0 {
            states |= 1 << UInt64(bit)
        }
        return ATSPIStates(rawValue: states)
    }

    func extents(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> Rect? {
        guard let component = atspi_accessible_get_component_iface(accessible) else { return nil }
        defer { g_object_unref(component) }
        guard let rect = atspi_component_get_extents(component, ATSPI_COORD_TYPE_SCREEN, nil) else { return nil }
        defer { g_free(rect) }
        let r = rect.pointee
        return Rect(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }

    func actions(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> [String] {
        guard let action = atspi_accessible_get_action_iface(accessible) else { return [] }
        defer { g_object_unref(action) }
        let count = atspi_action_get_n_actions(action, nil)
        guard count > 0 else { return [] }
        return (0..<count).map { string(atspi_action_get_action_name(action, $0, nil)) }.filter { !$0.isEmpty }
    }

    func value(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> ATSPIValue? {
        guard let value = atspi_accessible_get_value_iface(accessible) else { return nil }
        defer { g_object_unref(value) }
        return ATSPIValue(
            current: atspi_value_get_current_value(value, nil), minimum: atspi_value_get_minimum_value(value, nil),
            maximum: atspi_value_get_maximum_value(value, nil), increment: atspi_value_get_minimum_increment(value, nil))
    }

    func text(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> String? {
        guard let text = atspi_accessible_get_text_iface(accessible) else { return nil }
        defer { g_object_unref(text) }
        let count = atspi_text_get_character_count(text, nil)
        guard count > 0 else { return nil }
        return string(atspi_text_get_text(text, 0, count, nil))
    }

    /// The text's first selection, else its caret as an empty one (as the bulk read takes it:
    /// the line a field says is the caret's, not always the first).
    func selection(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> TextRange? {
        guard let text = atspi_accessible_get_text_iface(accessible) else { return nil }
        defer { g_object_unref(text) }
        if let range = atspi_text_get_selection(text, 0, nil) {
            defer { g_free(range) }
            let start = Int(range.pointee.start_offset), end = Int(range.pointee.end_offset)
            if end > start && start >= 0 { return TextRange(location: start, length: end - start) }
        }
        let caret = Int(atspi_text_get_caret_offset(text, nil))
        return caret >= 0 && caret <= Int(atspi_text_get_character_count(text, nil)) ? TextRange(location: caret, length: 0) : nil
    }

    /// One of the object's attributes ("placeholder-text"), if it has it.
    func attribute(_ name: String, of accessible: UnsafeMutablePointer<AtspiAccessible>) -> String? {
        attributes([name], of: accessible)[name]
    }

    /// Those of the object's attributes named, by name, asked for at once.
    func attributes(_ names: Set<String>, of accessible: UnsafeMutablePointer<AtspiAccessible>) -> [String: String] {
        guard let attributes = atspi_accessible_get_attributes_as_array(accessible, nil) else { return [:] }
        defer { g_array_free(attributes, 1) }
        let items = attributes.pointee.data.withMemoryRebound(to: UnsafeMutablePointer<gchar>?.self, capacity: Int(attributes.pointee.len)) { $0 }
        var found: [String: String] = [:]
        for index in 0..<Int(attributes.pointee.len) {
            guard let item = items[index] else { continue }
            let entry = String(cString: item)
            g_free(item)
            guard let colon = entry.firstIndex(of: ":") else { continue }
            let name = String(entry[..<colon])
            if names.contains(name), found[name] == nil { found[name] = String(entry[entry.index(after: colon)...]) }
        }
        return found
    }

    /// The paths of the objects in this one's `labelled-by` relation.
    func labelledBy(_ accessible: UnsafeMutablePointer<AtspiAccessible>) -> [String] {
        guard let relations = atspi_accessible_get_relation_set(accessible, nil) else { return [] }
        defer { g_array_free(relations, 1) }
        var paths: [String] = []
        let items = relations.pointee.data.withMemoryRebound(to: UnsafeMutablePointer<AtspiRelation>?.self, capacity: Int(relations.pointee.len)) { $0 }
        for index in 0..<Int(relations.pointee.len) {
            guard let relation = items[index] else { continue }
            defer { g_object_unref(relation) }
            guard atspi_relation_get_relation_type(relation) == ATSPI_RELATION_LABELLED_BY else { continue }
            for target in 0..<atspi_relation_get_n_targets(relation) {
                guard let accessible = atspi_relation_get_target(relation, target) else { continue }
                defer { g_object_unref(accessible) }
                if let path = narrator_atspi_path(accessible) { paths.append(String(cString: path)) }
            }
        }
        return paths
    }

    /// A string libatspi returned, freed.
    func string(_ owned: UnsafeMutablePointer<gchar>?) -> String {
        guard let owned else { return "" }
        defer { g_free(owned) }
        return String(cString: owned)
    }
}

@testable import NarratorBridge
@testable import NarratorModel
@testable import NarratorDBus

/// An application as AT-SPI2 describes it, answering the bridge's requests the way GTK (with its
/// cache) or Qt 5 (without) does; built from the snapshot the read is expected to give back.
struct FakeApplication: Sendable {
    var name = "fixture"
    var windows: [AccessibleSnapshot]
    var offersCache = true
    /// Objects the cache does not hold (GTK caches an object once it has been asked about).
    var cacheLeavesOut: Set<String> = []
    /// Objects the cache gives a wrong index in their parent (every one of them 0).
    var cacheMisnumbers: Set<String> = []
    /// The column headers that come before the cells among a table's children.
    var tableHeaders = 1
    /// Requests answered with no reply (the application hangs on them).
    var hangsOn: @Sendable (ATSPIRequest) -> Bool = { _ in false }
    /// Requests answered otherwise than the windows say (an application built to hurt), when it gives an answer.
    var answersInstead: @Sendable (ATSPIRequest) -> Result<DBusValue, DBusFailure>? = { _ in nil }
    var bus = ":1.9"
    /// `Application.ToolkitName` and `ToolkitVersion`.
    var toolkit = ("gtk", "3.24.38")

    /// Every object, in reading order.
    var all: [AccessibleSnapshot] {
        var found: [AccessibleSnapshot] = []
        func visit(_ node: AccessibleSnapshot) {
            found.append(node)
            node.children.forEach(visit)
        }
        windows.forEach(visit)
        return found
    }

    func find(_ path: String) -> AccessibleSnapshot? { windows.lazy.compactMap { $0.object(at: path) }.first }

    /// Each object's parent and its index there, found in one walk (a list of 10,000 rows is
    /// answered in linear time).
    func places() -> [String: (path: String, index: Int)] {
        var places: [String: (path: String, index: Int)] = [:]
        func visit(_ node: AccessibleSnapshot) {
            for (index, child) in node.children.enumerated() {
                places[child.path] = (node.path, index)
                visit(child)
            }
        }
        for (index, window) in windows.enumerated() {
            places[window.path] = (ATSPIApplicationRead.root, index)
            visit(window)
        }
        return places
    }

    func interfaces(_ s: AccessibleSnapshot) -> [String] {
        var list = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"]
        if !s.actions.isEmpty { list.append("org.a11y.atspi.Action") }
        if s.value != nil { list.append("org.a11y.atspi.Value") }
        if s.text != nil || s.states.contains(.editable) { list.append("org.a11y.atspi.Text") }
        return list
    }

    func ref(_ path: String) -> DBusValue { .structure([.string(bus), .string(path)]) }

    /// An object's attributes (`a{ss}`): the toolkit's, a field's placeholder, a heading's level,
    /// an item's place (Gecko's `posinset` and `setsize`).
    func attributes(_ s: AccessibleSnapshot) -> DBusValue {
        var attributes: [DBusValue] = [.structure([.string("toolkit"), .string(toolkit.0)])]
        if let placeholder = s.placeholder { attributes.append(.structure([.string("placeholder-text"), .string(placeholder)])) }
        if let level = s.level { attributes.append(.structure([.string("level"), .string(String(level))])) }
        if let place = s.position {
            attributes += [.structure([.string("posinset"), .string(String(place.index))]), .structure([.string("setsize"), .string(String(place.count))])]
        }
        return .array(attributes)
    }

    func states(_ s: ATSPIStates) -> DBusValue {
        .array([.unsigned(s.rawValue & 0xFFFF_FFFF), .unsigned(s.rawValue >> 32)])
    }

    /// The reply tuple, or a failure.
    func answer(_ request: ATSPIRequest) -> Result<DBusValue, DBusFailure> {
        if hangsOn(request) { return .failure(.timedOut) }
        if let instead = answersInstead(request) { return instead }
        func reply(_ v: DBusValue) -> Result<DBusValue, DBusFailure> { .success(.structure([v])) }
        let missing = Result<DBusValue, DBusFailure>.failure(.error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no"))
        switch request {
        case .items:
            guard offersCache else { return reply(.array([])) }
            let places = places()
            return reply(.array(all.filter { !cacheLeavesOut.contains($0.path) }.map { s in
                var (parent, index) = places[s.path] ?? (ATSPIApplicationRead.root, 0)
                if cacheMisnumbers.contains(s.path) { index = 0 }
                return .structure([
                    ref(s.path), ref(ATSPIApplicationRead.root), ref(parent), .integer(Int64(index)), .integer(Int64(s.children.count)),
                    .array(interfaces(s).map(DBusValue.string)), .string(s.name), .unsigned(UInt64(s.role.code)), .string(s.description),
                    states(s.states),
                ])
            }))
        case .name(let path):
            if path == ATSPIApplicationRead.root { return reply(.variant(.string(name))) }
            return find(path).map { reply(.variant(.string($0.name))) } ?? missing
        case .children(let path):
            let children = path == ATSPIApplicationRead.root ? windows : find(path)?.children ?? []
            return reply(.array(children.map { ref($0.path) }))
        case .role(let path): return find(path).map { reply(.unsigned(UInt64($0.role.code))) } ?? missing
        case .description(let path): return find(path).map { reply(.variant(.string($0.description))) } ?? missing
        case .states(let path): return find(path).map { reply(states($0.states)) } ?? missing
        case .interfaces(let path): return find(path).map { reply(.array(interfaces($0).map(DBusValue.string))) } ?? missing
        case .relations(let path):
            guard let s = find(path) else { return missing }
            let labelFor = all.filter { $0.labelledBy.contains(path) }.map { ref($0.path) }
            var relations: [DBusValue] = []
            if !labelFor.isEmpty { relations.append(.structure([.unsigned(1), .array(labelFor)])) }
            if !s.labelledBy.isEmpty { relations.append(.structure([.unsigned(2), .array(s.labelledBy.map(ref))])) }
            return reply(.array(relations))
        case .extents(let path):
            guard let s = find(path) else { return missing }
            let r = s.extents ?? Rect(x: Double(Int32.min), y: Double(Int32.min), width: 0, height: 0)
            return reply(.structure([r.x, r.y, r.width, r.height].map { .integer(Int64($0)) }))
        case .actions(let path):
            guard let s = find(path) else { return missing }
            return reply(.array(s.actions.map { .structure([.string($0), .string("does \($0)"), .string("")]) }))
        case .text(let path): return find(path).map { reply(.string($0.text ?? "")) } ?? missing
        case .selection(let path):
            // Two out arguments, the start and end offsets; no selection is an empty one at the caret.
            guard let s = find(path) else { return missing }
            let start = s.selection?.location ?? 2, end = s.selection.map { $0.location + $0.length } ?? 2
            return .success(.structure([.integer(Int64(start)), .integer(Int64(end))]))
        case .caret(let path):
            guard let s = find(path) else { return missing }
            return reply(.variant(.integer(Int64(s.selection.map { $0.location + $0.length } ?? -1))))
        case .attributes(let path):
            return find(path).map { reply(attributes($0)) } ?? missing
        case .properties(let path):
            // Properties.GetAll on Accessible: a{sv}, as at-spi2-atk answers it.
            guard let s = find(path) else { return missing }
            func entry(_ key: String, _ value: DBusValue) -> DBusValue { .structure([.string(key), .variant(value)]) }
            return reply(.array([
                entry("Name", .string(s.name)), entry("Description", .string(s.description)), entry("Locale", .string("en-US")),
                entry("ChildCount", .integer(Int64(s.children.count))), entry("Attributes", attributes(s)),
            ]))
        case .rowAtIndex(let path, let index):
            guard find(path)?.role == .table else { return missing }
            return reply(.integer(Int64(index < tableHeaders ? -1 : index - tableHeaders)))
        case .rowCount(let path):
            guard let table = find(path), table.role == .table else { return missing }
            return reply(.variant(.integer(Int64(table.children.count - tableHeaders))))
        case .childCount(let path):
            return find(path).map { reply(.variant(.integer(Int64($0.children.count)))) } ?? missing
        case .toolkitName: return reply(.variant(.string(toolkit.0)))
        case .toolkitVersion: return reply(.variant(.string(toolkit.1)))
        case .value(let path, let field):
            guard let v = find(path)?.value else { return missing }
            let n: Double
            switch field {
            case .current: n = v.current
            case .minimum: n = v.minimum
            case .maximum: n = v.maximum
            case .increment: n = v.increment
            }
            return reply(.variant(.double(n)))
        }
    }
}


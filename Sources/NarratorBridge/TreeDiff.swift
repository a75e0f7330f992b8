import NarratorModel

/// The `update`s that turn one version of a tree into the next, element by element, so that a
/// mirror re-read after an application changed sends what changed (a label, a value, one
/// subtree) rather than the whole document: the daemon keeps the focus where it was, or repairs it
/// to the nearest stop when the focused element went.
public enum TreeDiff {
    /// One update, with the element's two versions when it sets properties: what decides whether
    /// the change is worth saying (a tab losing "selected" is not) without searching either tree.
    public struct Change: Equatable, Sendable {
        public var update: TreeUpdate
        /// The element before and after, for a property change; nil for replaced children.
        public var before: Node?, after: Node?
    }

    /// The updates from `old` to `new`, which must have the same root id (nil otherwise: the tree
    /// is registered again). Properties of an element that changed are set (a cleared one is set
    /// to `null`); an element whose children are no longer the same ids, in the same order, gets
    /// its children replaced, and the ones that stayed are compared in turn.
    public static func updates(from old: Node, to new: Node) -> [TreeUpdate]? {
        changes(from: old, to: new)?.map(\.update)
    }

    /// The same updates, each with the versions of its element.
    public static func changes(from old: Node, to new: Node) -> [Change]? {
        guard old.id == new.id else { return nil }
        var changes: [Change] = []
        compare(old, new, into: &changes)
        return changes
    }

    static func compare(_ old: Node, _ new: Node, into changes: inout [Change]) {
        propertyChange(old, new, into: &changes)
        guard old.children.map(\.id) == new.children.map(\.id) else {
            // What changed in the children that stay is set first, so that it is said as such
            // (a check box checked as a page added a child elsewhere under the same parent),
            // not lost in the replacement.
            stayingChanges(old.children, new.children, into: &changes)
            let children = JSONValue.array(new.children.map { TreeDocumentEncoder.json($0) })
            changes.append(Change(update: .replaceChildren(element: new.id, children: children), before: nil, after: nil))
            return
        }
        for (before, after) in zip(old.children, new.children) {
            compare(before, after, into: &changes)
        }
    }

    /// The properties `new` changed from `old`, if any, as one `set`.
    static func propertyChange(_ old: Node, _ new: Node, into changes: inout [Change]) {
        let before = properties(of: old), after = properties(of: new)
        guard before != after else { return }
        var changed = JSONObject()
        for member in after.members where before[member.key] != member.value {
            changed.members.append(member)
        }
        for member in before.members where after[member.key] == nil {
            changed.members.append(.init(key: member.key, value: .null))
        }
        changes.append(Change(update: .setProperties(element: new.id, properties: .object(changed)), before: old, after: new))
    }

    /// The property changes of the elements in both `old` and `new` (matched by id, at any depth
    /// under them), whose parent's children are replaced after.
    static func stayingChanges(_ old: [Node], _ new: [Node], into changes: inout [Change]) {
        let kept = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for after in new {
            // (Equality first: it is cheaper than the properties of every element of a page that stayed.)
            guard let before = kept[after.id], before != after else { continue }
            propertyChange(before, after, into: &changes)
            stayingChanges(before.children, after.children, into: &changes)
        }
    }

    /// A node's document keys other than its id and children.
    static func properties(of node: Node) -> JSONObject {
        guard case .object(var object) = TreeDocumentEncoder.json(node) else { return JSONObject() }
        object.members.removeAll { $0.key == "id" || $0.key == "children" }
        return object
    }
}

/// The `update`s that turn one version of a tree into the next, element by element, so that a
/// mirror re-read after an application changed sends what changed (a label, a value, one
/// subtree) rather than the whole document: the daemon keeps the focus where it was, or repairs it
/// to the nearest stop when the focused element went.
public enum TreeDiff {
    /// The updates from `old` to `new`, which must have the same root id (nil otherwise: the tree
    /// is registered again). Properties of an element that changed are set (a cleared one is set
    /// to `null`); an element whose children are no longer the same ids, in the same order, gets
    /// its children replaced, and the ones that stayed are compared in turn.
    public static func updates(from old: Node, to new: Node) -> [TreeUpdate]? {
        guard old.id == new.id else { return nil }
        var updates: [TreeUpdate] = []
        compare(old, new, into: &updates)
        return updates
    }

    static func compare(_ old: Node, _ new: Node, into updates: inout [TreeUpdate]) {
        let before = properties(of: old), after = properties(of: new)
        if before != after {
            var changed = JSONObject()
            for member in after.members where before[member.key] != member.value {
                changed.members.append(member)
            }
            for member in before.members where after[member.key] == nil {
                changed.members.append(.init(key: member.key, value: .null))
            }
            updates.append(.setProperties(element: new.id, properties: .object(changed)))
        }
        guard old.children.map(\.id) == new.children.map(\.id) else {
            updates.append(.replaceChildren(element: new.id, children: .array(new.children.map { TreeDocumentEncoder.json($0) })))
            return
        }
        for (before, after) in zip(old.children, new.children) {
            compare(before, after, into: &updates)
        }
    }

    /// A node's document keys other than its id and children.
    static func properties(of node: Node) -> JSONObject {
        guard case .object(var object) = TreeDocumentEncoder.json(node) else { return JSONObject() }
        object.members.removeAll { $0.key == "id" || $0.key == "children" }
        return object
    }
}

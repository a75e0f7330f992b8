/// The keys of a node, so that one string comparison chain (no hashing) finds each member's
/// meaning and its bit in the "seen" mask.
public enum NodeField: String, CaseIterable, Sendable {
    case id, label, value, hint, traits, children, childBehavior, isElement, hidden, sortPriority, modal, frame
    case activationPoint, actions, magicTap, escape, adjustable, representation, rotors, selectedTextRange, positionInSet, headingLevel
    case table, cell, cellHeader, landmark, list, live, block

    /// The field a key names, or nil. Written out by length because the synthesised
    /// `init(rawValue:)` hashes the key into a cache, which cost more than all the comparisons.
    init?(key: String) {
        let field: NodeField?
        switch key.utf8.count {
        case 2: field = key == "id" ? .id : nil
        case 4:
            switch key {
            case "hint": field = .hint
            case "cell": field = .cell
            case "list": field = .list
            case "live": field = .live
            default: field = nil
            }
        case 5:
            switch key {
            case "label": field = .label
            case "value": field = .value
            case "frame": field = .frame
            case "modal": field = .modal
            case "table": field = .table
            case "block": field = .block
            default: field = nil
            }
        case 6:
            switch key {
            case "traits": field = .traits
            case "hidden": field = .hidden
            case "escape": field = .escape
            case "rotors": field = .rotors
            default: field = nil
            }
        case 7: field = key == "actions" ? .actions : nil
        case 8:
            switch key {
            case "children": field = .children
            case "magicTap": field = .magicTap
            case "landmark": field = .landmark
            default: field = nil
            }
        case 9: field = key == "isElement" ? .isElement : nil
        case 10:
            switch key {
            case "adjustable": field = .adjustable
            case "cellHeader": field = .cellHeader
            default: field = nil
            }
        case 12:
            switch key {
            case "sortPriority": field = .sortPriority
            case "headingLevel": field = .headingLevel
            default: field = nil
            }
        case 13:
            switch key {
            case "childBehavior": field = .childBehavior
            case "positionInSet": field = .positionInSet
            default: field = nil
            }
        case 14: field = key == "representation" ? .representation : nil
        case 15: field = key == "activationPoint" ? .activationPoint : nil
        case 17: field = key == "selectedTextRange" ? .selectedTextRange : nil
        default: field = nil
        }
        guard let field else { return nil }
        self = field
    }

    package var bitIndex: UInt32 {
        switch self {
        case .id: 0
        case .label: 1
        case .value: 2
        case .hint: 3
        case .traits: 4
        case .children: 5
        case .childBehavior: 6
        case .isElement: 7
        case .hidden: 8
        case .sortPriority: 9
        case .modal: 10
        case .frame: 11
        case .activationPoint: 12
        case .actions: 13
        case .magicTap: 14
        case .escape: 15
        case .adjustable: 16
        case .representation: 17
        case .rotors: 18
        case .selectedTextRange: 19
        case .positionInSet: 20
        case .headingLevel: 21
        case .table: 22
        case .cell: 23
        case .cellHeader: 24
        case .landmark: 25
        case .list: 26
        case .live: 27
        case .block: 28
        }
    }
}

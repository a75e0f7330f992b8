/// A location inside a JSON document, rendered as `root.children[2].frame`.
///
/// Decoders keep a stack of components and render it only when they report a problem,
/// so that validating a million nodes builds no strings on the happy path.
public enum JSONPathComponent: Equatable, Sendable {
    case key(String)
    case index(Int)
}

extension [JSONPathComponent] {
    /// The dotted rendering used in every error message.
    public var rendered: String {
        var out = ""
        for component in self {
            switch component {
            case .key(let key):
                if !out.isEmpty { out += "." }
                out += key
            case .index(let index):
                out += "[\(index)]"
            }
        }
        return out
    }
}

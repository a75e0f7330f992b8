/// A D-Bus value as a plain Swift value: what an AT-SPI2 reply holds, decoded once by the bridge
/// so that reading it (``ATSPIApplicationRead``) is pure and tested without a bus.
public indirect enum DBusValue: Equatable, Sendable {
    case bool(Bool)
    /// Every signed integer type (y is unsigned and lands in `.unsigned`).
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    /// Strings, object paths and signatures.
    case string(String)
    case array([DBusValue])
    /// A struct, and a dictionary entry (key, value).
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        if case .string(let s) = unwrapped { return s }
        return nil
    }

    public var int: Int? {
        switch unwrapped {
        case .integer(let i): return Int(exactly: i)
        case .unsigned(let u): return Int(exactly: u)
        default: return nil
        }
    }

    public var double: Double? {
        switch unwrapped {
        case .double(let d): return d
        case .integer(let i): return Double(i)
        case .unsigned(let u): return Double(u)
        default: return nil
        }
    }

    /// The elements of an array or the fields of a struct.
    public var items: [DBusValue]? {
        switch unwrapped {
        case .array(let a), .structure(let a): return a
        default: return nil
        }
    }

    /// Field `index` of a struct or element of an array; nil when there is none.
    public subscript(index: Int) -> DBusValue? {
        guard let items, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// An object reference `(so)`: the path alone (the bus name is the application's).
    public var objectPath: String? { self[1]?.string }
}

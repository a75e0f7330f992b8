import NarratorBase

/// Identifies one announcement from its request to its final outcome (the `announcement` of a reply).
public struct AnnouncementID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: AnnouncementID, rhs: AnnouncementID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "A\(rawValue)" }
}

/// Something an app wants said, before the queue has decided anything about it.
public struct Announcement: Sendable, Hashable {
    public var id: AnnouncementID
    public var text: String
    public var priority: AnnouncementPriority
    /// The tree (screen) it belongs to; its rate limit and policy apply.
    public var tree: String?
    /// The control it is about; announcements about the same control coalesce.
    public var element: String?
    /// Two announcements with the same key are the same message (default: the normalized text).
    public var key: String
    /// The connection that sent it, whose `--max-queued` limit it counts against while it waits.
    public var client: ClientID?
    /// The language it is written in (its tree's): picks the voice unless the user chose one.
    public var language: String?

    public init(
        id: AnnouncementID, text: String, priority: AnnouncementPriority = .default, tree: String? = nil,
        element: String? = nil, key: String? = nil, client: ClientID? = nil, language: String? = nil
    ) {
        self.id = id
        self.text = text
        self.priority = priority
        self.tree = tree
        self.element = element
        self.key = key ?? Self.normalizedKey(text)
        self.client = client
        self.language = language
    }

    /// The default dedup key: the text lowercased with runs of whitespace collapsed, so
    /// "3 new  Messages" and "3 new messages" are one message.
    public static func normalizedKey(_ text: String) -> String {
        asciiKey(text) ?? text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The same key for ASCII text, byte by byte (nil when `text` is not ASCII): asking each
    /// Character whether it is whitespace cost a flood of SSIP messages a quarter of the loop's
    /// time. ASCII's whitespace is tab, line feed, vertical tab, form feed, carriage return and
    /// space, exactly the ASCII characters Unicode calls White_Space.
    static func asciiKey(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var key: [UInt8] = []
            key.reserveCapacity(bytes.count)
            var gap = false
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    gap = !key.isEmpty
                    continue
                }
                if gap {
                    key.append(0x20)
                    gap = false
                }
                key.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
            return String(decoding: key, as: UTF8.self)
        }
    }

    /// What deduplication compares: the key within one tree (two apps saying "Done" are two messages).
    var dedupIdentity: DedupIdentity { DedupIdentity(tree: tree, key: key) }

    /// Whether `other` is about the same thing, for coalescing: the same control when this one
    /// names one, else the same key; within one tree.
    func coalesces(with other: Announcement) -> Bool {
        guard tree == other.tree, element == other.element else { return false }
        return element != nil || key == other.key
    }
}

/// The key within one tree: what deduplication compares.
package struct DedupIdentity: Hashable, Sendable {
    var tree: String?
    package var key: String

    package init(tree: String?, key: String) {
        self.tree = tree
        self.key = key
    }
}

import NarratorSpeechPlan
import Testing

/// The dedup key ("3 new  Messages" and "3 new messages" are one message): its ASCII fast path
/// must give exactly what the Unicode definition gives, for every kind of text it takes.
struct DedupKeyTests {
    /// The definition: lowercased, runs of Unicode whitespace collapsed to one space, trimmed.
    static func reference(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("repeats that differ in case and spacing share a key", arguments: [
        ("3 new  Messages", "3 new messages"),
        ("  Done\t\n", "done"),
        ("Line one\r\nLine two", "line one line two"),
        ("", ""),
        (" \u{0B}\u{0C} ", ""),
    ])
    func sameKey(text: String, key: String) {
        #expect(Announcement.normalizedKey(text) == key)
    }

    @Test("text beyond ASCII keeps the Unicode definition")
    func unicode() {
        for text in ["Ärger  ÜBER alles", "a\u{00A0}b", "x\u{2003}y\u{3000}z", "ΣΊΣΥΦΟΣ", "e\u{301}te\u{301}"] {
            #expect(Announcement.normalizedKey(text) == Self.reference(text), "\(text.debugDescription)")
        }
    }

    @Test("every ASCII character, in any order, keys as the definition does")
    func everyASCII() {
        let ascii = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
        // A fixed generator, so that a failure can be replayed.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        for _ in 0..<2_000 {
            let text = String((0..<(next() % 24)).map { _ in ascii[next() % ascii.count] })
            #expect(Announcement.normalizedKey(text) == Self.reference(text), "\(text.debugDescription)")
        }
    }
}

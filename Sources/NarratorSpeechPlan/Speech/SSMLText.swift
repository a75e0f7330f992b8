/// The words an SSML message says: Orca and other SSIP clients in SSML mode send their
/// messages as markup (`<speak><mark name="0:1"/>4 percent.</speak>`), and counting or timing
/// the markup as text would count the tags as words.
public enum SSMLText {
    /// Whether `text` is an SSML document (it opens with `<speak`).
    public static func isSSML(_ text: String) -> Bool {
        text.drop { $0.isWhitespace }.hasPrefix("<speak")
    }

    /// The text without its tags, the five XML entities read; other text as it is.
    public static func plain(_ text: String) -> String {
        guard isSSML(text) else { return text }
        var out = ""
        var inTag = false
        for character in text {
            switch character {
            case "<": inTag = true
            case ">" where inTag:
                inTag = false
                out.append(" ")
            default: if !inTag { out.append(character) }
            }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            out = out.replacing(entity, with: character)
        }
        return out
    }
}

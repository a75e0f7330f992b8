/// The built-in phrase tables, as data: one file per language in `Phrases/`, keyed by `Phrase`
/// raw values. English is complete; a language added here may be partial (missing phrases fall
/// back to English).
enum PhraseData {
    static let tables: [String: (decimalSeparator: String, phrases: [String: String])] = [
        "en": en, "de": de, "fr": fr, "es": es,
    ]
}

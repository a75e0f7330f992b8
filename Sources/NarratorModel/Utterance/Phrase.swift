/// The words Narrator adds to what apps provide: trait names, states and fixed phrases.
public enum Phrase: String, CaseIterable, Sendable {
    case selected, unlabelled, dimmed
    case heading, link, searchField, button, switchButton, tab, image, adjustable
    /// "{index} of {count}", spoken after "tab" inside a tab bar, and after the role of an
    /// element with a `positionInSet`.
    case tabPosition
    /// Spoken values of a toggle.
    case on, off
    /// Desktop roles.
    case checkBox, radioButton, comboBox, textField, menu, menuItem, listItem, progressBar, dialog, alert
    /// Spoken values of a check box or radio button.
    case checked, notChecked, partiallyChecked
    /// States of something that opens and closes.
    case expanded, collapsed
    /// "{text} selected": the selected part of a value, after it (all of it is just "selected").
    case selectedText
    /// A text field edited as the user types: a blank typed, and "{text} deleted".
    case space, deletedText
    /// Characters with no sound of their own: a tab and a line break, typed or reached by the caret.
    case tabCharacter, newline
    /// The caret on an empty line, or at the end of one (as Orca says it).
    case blank
    /// "{text} unselected": what a selection gave back; "unselected" alone: all of it.
    case unselectedText, unselected
    /// "heading level {level}": a header with a level.
    case headingLevel
    /// Follows the hint when an element has custom actions.
    case actionsAvailable
    /// Said before a rotor's target when it went round past the last target (to the first) or
    /// past the first (to the last).
    case wrappedToTop, wrappedToBottom
    /// Said when an adjustable control's application gives Narrator no way to change it (no
    /// value to set, no Increase or Decrease action), so a key that adjusts is not met by silence.
    case cannotAdjust
    /// A header cell's role: "Race, column header".
    case columnHeader, rowHeader
    /// "table with {rows} rows {columns} columns": said with a table's name as the tables rotor reaches it.
    case tableSize
    /// "row {row}, column {column}": said after the cell a cell move reached, as Orca says
    /// the coordinates (counted from 1, the header row and column included).
    case cellPosition
    /// "table": what brief verbosity says of a table instead of its size.
    case table
    /// Said when a cell move meets the table's edge, and focus stays (Orca's words).
    case beginningOfRow, endOfRow, topOfColumn, bottomOfColumn
    /// A link whose page was visited, in Orca's words.
    case visitedLink
    /// "List with {count} items" (one: "List with 1 item"): said with a list as the lists rotor reaches it.
    case listSize, listSizeOne
    /// The same for a list inside another: "Nested list with {count} items".
    case nestedListSize, nestedListSizeOne
    /// Said with a block quote as the block quotes rotor reaches it.
    case blockQuote
    /// Landmarks by their role names, in Orca's words: said as the cursor enters one.
    case landmarkBanner, landmarkNavigation, landmarkMain, landmarkComplementary, landmarkContentinfo, landmarkRegion
    case landmarkForm, landmarkSearch
    /// "leaving {role}": said as the cursor leaves a landmark ("leaving navigation").
    case leaving
}

/// The phrases of one language. Lookups fall back to English for anything a table lacks,
/// so a partial translation never makes Narrator silent.
public struct PhraseTable: Equatable, Sendable {
    public let language: String
    let phrases: [Phrase: String]
    /// How decimals are written in spoken values ("2.5" in English, "2,5" in German).
    public let decimalSeparator: String

    public init(language: String, phrases: [Phrase: String], decimalSeparator: String = ".") {
        self.language = language
        self.phrases = phrases
        self.decimalSeparator = decimalSeparator
    }

    public subscript(phrase: Phrase) -> String {
        phrases[phrase] ?? PhraseTable.english.phrases[phrase] ?? phrase.rawValue
    }

    /// The phrases that are missing from this table (and come from English).
    public var missing: [Phrase] { Phrase.allCases.filter { phrases[$0] == nil } }

    /// The table for a language tag: "de-AT" uses "de"; unknown languages use English.
    public static func forLanguage(_ tag: String?) -> PhraseTable {
        guard let tag else { return english }
        let primary = tag.split(separator: "-").first.map { String($0).lowercased() } ?? ""
        return builtin[primary] ?? english
    }

    /// Languages with a built-in table.
    public static var languages: [String] { builtin.keys.sorted() }

    package static let english = builtin["en"] ?? PhraseTable(language: "en", phrases: [:])

    static let builtin: [String: PhraseTable] = {
        var tables: [String: PhraseTable] = [:]
        for (language, entry) in PhraseData.tables {
            var phrases: [Phrase: String] = [:]
            for (key, text) in entry.phrases {
                guard let phrase = Phrase(rawValue: key) else { continue }
                phrases[phrase] = text
            }
            tables[language] = PhraseTable(language: language, phrases: phrases, decimalSeparator: entry.decimalSeparator)
        }
        return tables
    }()
}

/// What browse mode's single-letter keys jump between, as Orca's structural navigation does:
/// each kind is a rotor of narratord's with the same items.
public enum Structure: String, CaseIterable, Sendable, Hashable {
    case heading
    case heading1 = "heading-1", heading2 = "heading-2", heading3 = "heading-3"
    case heading4 = "heading-4", heading5 = "heading-5", heading6 = "heading-6"
    case link
    case formField = "form-field"
    case button
    case entry
    case checkBox = "check-box"
    case radioButton = "radio-button"
    case comboBox = "combo-box"
    case image
    case listItem = "list-item"
    case table
    case unvisitedLink = "unvisited-link", visitedLink = "visited-link"
    case list, landmark
    case liveRegion = "live-region"
    case paragraph
    case blockQuote = "block-quote"

    /// Orca's key for the next one (with Shift, the previous): its default binding.
    var key: String {
        switch self {
        case .heading: "h"
        case .heading1, .heading2, .heading3, .heading4, .heading5, .heading6: String(rawValue.suffix(1))
        case .link: "k"
        case .formField: "f"
        case .button: "b"
        case .entry: "e"
        case .checkBox: "x"
        case .radioButton: "r"
        case .comboBox: "c"
        case .image: "g"
        case .listItem: "i"
        case .table: "t"
        case .unvisitedLink: "u"
        case .visitedLink: "v"
        case .list: "l"
        case .landmark: "m"
        case .liveRegion: "d"
        case .paragraph: "p"
        case .blockQuote: "q"
        }
    }

    /// narratord's rotor over these items.
    public var rotor: String {
        switch self {
        case .heading: "headings"
        case .heading1, .heading2, .heading3, .heading4, .heading5, .heading6: "headings-" + rawValue.suffix(1)
        case .link: "links"
        case .formField: "controls"
        case .button: "buttons"
        case .entry: "text-fields"
        case .checkBox: "check-boxes"
        case .radioButton: "radio-buttons"
        case .comboBox: "combo-boxes"
        case .image: "images"
        case .listItem: "list-items"
        case .table: "tables"
        case .unvisitedLink: "unvisited-links"
        case .visitedLink: "visited-links"
        case .list: "lists"
        case .landmark: "landmarks"
        case .liveRegion: "live-regions"
        case .paragraph: "paragraphs"
        case .blockQuote: "block-quotes"
        }
    }

    /// The items in words, as Orca names them: "No more headings at level 2."
    public var plural: String {
        switch self {
        case .heading: "headings"
        case .heading1, .heading2, .heading3, .heading4, .heading5, .heading6: "headings at level " + rawValue.suffix(1)
        case .link: "links"
        case .formField: "form fields"
        case .button: "buttons"
        case .entry: "entries"
        case .checkBox: "check boxes"
        case .radioButton: "radio buttons"
        case .comboBox: "combo boxes"
        case .image: "images"
        case .listItem: "list items"
        case .table: "tables"
        case .unvisitedLink: "unvisited links"
        case .visitedLink: "visited links"
        case .list: "lists"
        case .landmark: "landmarks"
        case .liveRegion: "live regions"
        case .paragraph: "paragraphs"
        case .blockQuote: "blockquotes"
        }
    }

    /// One of them in words.
    var singular: String {
        switch self {
        case .heading: "heading"
        case .heading1, .heading2, .heading3, .heading4, .heading5, .heading6: "heading at level " + rawValue.suffix(1)
        case .link: "link"
        case .formField: "form field"
        case .button: "button"
        case .entry: "entry"
        case .checkBox: "check box"
        case .radioButton: "radio button"
        case .comboBox: "combo box"
        case .image: "image"
        case .listItem: "list item"
        case .table: "table"
        case .unvisitedLink: "unvisited link"
        case .visitedLink: "visited link"
        case .list: "list"
        case .landmark: "landmark"
        case .liveRegion: "live region"
        case .paragraph: "paragraph"
        case .blockQuote: "block quote"
        }
    }
}

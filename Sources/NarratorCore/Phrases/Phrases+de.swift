/// German phrases.
extension PhraseData {
    static let de: (decimalSeparator: String, phrases: [String: String]) = (
        ",",
        [
        "selected": "ausgewählt", "unlabelled": "ohne Beschriftung", "dimmed": "abgeblendet",
        "heading": "Überschrift", "link": "Link", "searchField": "Suchfeld", "button": "Taste",
        "switchButton": "Schalter", "tab": "Tab", "image": "Bild", "adjustable": "anpassbar",
        "tabPosition": "{index} von {count}", "on": "ein", "off": "aus",
        "actionsAvailable": "Aktionen verfügbar",
        ]
    )
}

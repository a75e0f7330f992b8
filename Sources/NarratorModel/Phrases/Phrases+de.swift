/// German phrases.
extension PhraseData {
    static let de: (decimalSeparator: String, phrases: [String: String]) = (
        ",",
        [
        "selected": "ausgewählt", "unlabelled": "ohne Beschriftung", "dimmed": "abgeblendet",
        "heading": "Überschrift", "link": "Link", "searchField": "Suchfeld", "button": "Taste",
        "switchButton": "Schalter", "tab": "Tab", "image": "Bild", "adjustable": "anpassbar",
        "tabPosition": "{index} von {count}", "selectedText": "{text} ausgewählt", "space": "Leerzeichen", "deletedText": "{text} gelöscht", "on": "ein", "off": "aus",
        "tabCharacter": "Tabulator", "newline": "Zeilenumbruch", "blank": "leer", "unselectedText": "{text} nicht ausgewählt", "unselected": "Auswahl aufgehoben",
        "headingLevel": "Überschrift Ebene {level}",
        "actionsAvailable": "Aktionen verfügbar",
        "wrappedToTop": "wieder am Anfang", "wrappedToBottom": "wieder am Ende", "cannotAdjust": "nicht einstellbar",
        "checkBox": "Kontrollkästchen", "radioButton": "Optionsfeld", "comboBox": "Kombinationsfeld", "textField": "Textfeld",
        "menu": "Menü", "menuItem": "Menüeintrag", "listItem": "Listeneintrag", "progressBar": "Fortschrittsbalken",
        "dialog": "Dialog", "alert": "Warnmeldung", "checked": "aktiviert", "notChecked": "nicht aktiviert",
        "partiallyChecked": "teilweise aktiviert", "expanded": "ausgeklappt", "collapsed": "eingeklappt",
        ]
    )
}

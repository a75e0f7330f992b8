/// French phrases.
extension PhraseData {
    static let fr: (decimalSeparator: String, phrases: [String: String]) = (
        ",",
        [
        "selected": "sélectionné", "unlabelled": "sans libellé", "dimmed": "estompé",
        "heading": "en-tête", "link": "lien", "searchField": "champ de recherche", "button": "bouton",
        "switchButton": "interrupteur", "tab": "onglet", "image": "image", "adjustable": "réglable",
        "tabPosition": "{index} sur {count}", "selectedText": "{text} sélectionné", "space": "espace", "deletedText": "{text} supprimé", "on": "activé", "off": "désactivé",
        "tabCharacter": "tabulation", "newline": "retour à la ligne", "blank": "vide", "unselectedText": "{text} désélectionné", "unselected": "désélectionné",
        "headingLevel": "titre de niveau {level}",
        "actionsAvailable": "actions disponibles",
        "wrappedToTop": "retour au début", "wrappedToBottom": "retour à la fin", "cannotAdjust": "non réglable",
        "checkBox": "case à cocher", "radioButton": "bouton radio", "comboBox": "liste déroulante", "textField": "champ de texte",
        "menu": "menu", "menuItem": "élément de menu", "listItem": "élément de liste", "progressBar": "barre de progression",
        "dialog": "boîte de dialogue", "alert": "alerte", "checked": "coché", "notChecked": "non coché",
        "partiallyChecked": "partiellement coché", "expanded": "développé", "collapsed": "réduit",
        ]
    )
}

/// French phrases.
extension PhraseData {
    static let fr: (decimalSeparator: String, phrases: [String: String]) = (
        ",",
        [
        "selected": "sélectionné", "unlabelled": "sans libellé", "dimmed": "estompé",
        "heading": "en-tête", "link": "lien", "searchField": "champ de recherche", "button": "bouton",
        "switchButton": "interrupteur", "tab": "onglet", "image": "image", "adjustable": "réglable",
        "tabPosition": "{index} sur {count}", "on": "activé", "off": "désactivé",
        "actionsAvailable": "actions disponibles",
        ]
    )
}

/// The built-in phrase tables, as data: one entry per language, keyed by `Phrase` raw values.
/// English is complete; add a language by adding an entry (missing phrases fall back to English).
enum PhraseData {
    static let tables: [String: (decimalSeparator: String, phrases: [String: String])] = [
        "en": (
            ".",
            [
                "selected": "selected", "unlabelled": "unlabelled", "dimmed": "dimmed",
                "heading": "heading", "link": "link", "searchField": "search field", "button": "button",
                "switchButton": "switch button", "tab": "tab", "image": "image", "adjustable": "adjustable",
                "tabPosition": "{index} of {count}", "on": "on", "off": "off",
                "actionsAvailable": "actions available",
            ]
        ),
        "de": (
            ",",
            [
                "selected": "ausgewählt", "unlabelled": "ohne Beschriftung", "dimmed": "abgeblendet",
                "heading": "Überschrift", "link": "Link", "searchField": "Suchfeld", "button": "Taste",
                "switchButton": "Schalter", "tab": "Tab", "image": "Bild", "adjustable": "anpassbar",
                "tabPosition": "{index} von {count}", "on": "ein", "off": "aus",
                "actionsAvailable": "Aktionen verfügbar",
            ]
        ),
        "fr": (
            ",",
            [
                "selected": "sélectionné", "unlabelled": "sans libellé", "dimmed": "estompé",
                "heading": "en-tête", "link": "lien", "searchField": "champ de recherche", "button": "bouton",
                "switchButton": "interrupteur", "tab": "onglet", "image": "image", "adjustable": "réglable",
                "tabPosition": "{index} sur {count}", "on": "activé", "off": "désactivé",
                "actionsAvailable": "actions disponibles",
            ]
        ),
        "es": (
            ",",
            [
                "selected": "seleccionado", "unlabelled": "sin etiqueta", "dimmed": "atenuado",
                "heading": "encabezado", "link": "enlace", "searchField": "campo de búsqueda", "button": "botón",
                "switchButton": "interruptor", "tab": "pestaña", "image": "imagen", "adjustable": "ajustable",
                "tabPosition": "{index} de {count}", "on": "activado", "off": "desactivado",
                "actionsAvailable": "acciones disponibles",
            ]
        ),
    ]
}

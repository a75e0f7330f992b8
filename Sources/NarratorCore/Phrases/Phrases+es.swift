/// Spanish phrases.
extension PhraseData {
    static let es: (decimalSeparator: String, phrases: [String: String]) = (
        ",",
        [
        "selected": "seleccionado", "unlabelled": "sin etiqueta", "dimmed": "atenuado",
        "heading": "encabezado", "link": "enlace", "searchField": "campo de búsqueda", "button": "botón",
        "switchButton": "interruptor", "tab": "pestaña", "image": "imagen", "adjustable": "ajustable",
        "tabPosition": "{index} de {count}", "on": "activado", "off": "desactivado",
        "actionsAvailable": "acciones disponibles",
        ]
    )
}

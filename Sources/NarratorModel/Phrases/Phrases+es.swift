/// Spanish phrases.
extension PhraseData {
    static let es: (decimalSeparator: String, phrases: [String: String]) = (
        ",",
        [
        "selected": "seleccionado", "unlabelled": "sin etiqueta", "dimmed": "atenuado",
        "heading": "encabezado", "link": "enlace", "searchField": "campo de búsqueda", "button": "botón",
        "switchButton": "interruptor", "tab": "pestaña", "image": "imagen", "adjustable": "ajustable",
        "tabPosition": "{index} de {count}", "selectedText": "{text} seleccionado", "space": "espacio", "deletedText": "{text} borrado", "on": "activado", "off": "desactivado",
        "tabCharacter": "tabulador", "newline": "salto de línea", "blank": "en blanco", "unselectedText": "{text} deseleccionado", "unselected": "deseleccionado",
        "headingLevel": "encabezado de nivel {level}",
        "actionsAvailable": "acciones disponibles",
        "wrappedToTop": "vuelta al principio", "wrappedToBottom": "vuelta al final", "cannotAdjust": "no se puede ajustar",
        "checkBox": "casilla de verificación", "radioButton": "botón de opción", "comboBox": "cuadro combinado", "textField": "campo de texto",
        "menu": "menú", "menuItem": "elemento de menú", "listItem": "elemento de lista", "progressBar": "barra de progreso",
        "dialog": "diálogo", "alert": "alerta", "checked": "marcado", "notChecked": "no marcado",
        "partiallyChecked": "parcialmente marcado", "expanded": "expandido", "collapsed": "contraído",
        ]
    )
}

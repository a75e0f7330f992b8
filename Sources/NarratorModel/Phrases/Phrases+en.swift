/// English phrases (complete: the fallback for every other table).
extension PhraseData {
    static let en: (decimalSeparator: String, phrases: [String: String]) = (
        ".",
        [
        "selected": "selected", "unlabelled": "unlabelled", "dimmed": "dimmed",
        "heading": "heading", "link": "link", "searchField": "search field", "button": "button",
        "switchButton": "switch button", "tab": "tab", "image": "image", "adjustable": "adjustable",
        "tabPosition": "{index} of {count}", "selectedText": "{text} selected", "space": "space", "deletedText": "{text} deleted", "on": "on", "off": "off",
        "tabCharacter": "tab", "newline": "newline", "blank": "blank", "unselectedText": "{text} unselected", "unselected": "unselected",
        "headingLevel": "heading level {level}",
        "actionsAvailable": "actions available",
        "wrappedToTop": "wrapped to top", "wrappedToBottom": "wrapped to bottom", "cannotAdjust": "cannot be adjusted",
        "columnHeader": "column header", "rowHeader": "row header", "tableSize": "table with {rows} rows {columns} columns", "table": "table",
        "cellPosition": "row {row}, column {column}",
        "visitedLink": "visited link", "listSize": "List with {count} items", "listSizeOne": "List with 1 item", "nestedListSize": "Nested list with {count} items", "nestedListSizeOne": "Nested list with 1 item",
        "blockQuote": "block quote",
        "landmarkBanner": "banner", "landmarkNavigation": "navigation", "landmarkMain": "main content",
        "landmarkComplementary": "complementary content", "landmarkContentinfo": "information", "landmarkRegion": "region",
        "landmarkForm": "form", "landmarkSearch": "search", "leaving": "leaving {role}",
        "beginningOfRow": "Beginning of row", "endOfRow": "End of row", "topOfColumn": "Top of column", "bottomOfColumn": "Bottom of column",
        "checkBox": "check box", "radioButton": "radio button", "comboBox": "combo box", "textField": "text field",
        "menu": "menu", "menuItem": "menu item", "listItem": "list item", "progressBar": "progress bar",
        "dialog": "dialog", "alert": "alert", "checked": "checked", "notChecked": "not checked",
        "partiallyChecked": "partially checked", "expanded": "expanded", "collapsed": "collapsed",
        ]
    )
}

@testable import NarratorModel
import Testing

@Suite struct UtteranceTests {
    func say(_ node: String, extra: String = "") throws -> String {
        let t = try tree(node, extra: extra)
        return t.utterance(atStop: 0).text
    }

    @Test func partsInOrder() throws {
        #expect(try say(#"{"id": "a", "label": "Wi-Fi", "value": "Home", "traits": ["button", "selected", "notEnabled"]}"#) == "selected, Wi-Fi, Home, button, dimmed")
        #expect(try say(#"{"id": "a", "label": "Intro", "traits": ["header", "link"]}"#) == "Intro, heading, link")
        #expect(try say(#"{"id": "a", "label": "Find", "traits": ["searchField"]}"#) == "Find, search field")
        #expect(try say(#"{"id": "a", "label": "Cover", "traits": ["image"]}"#) == "Cover, image")
    }

    @Test func unlabelledControls() throws {
        #expect(try say(#"{"id": "a", "traits": ["button"]}"#) == "unlabelled, button")
        #expect(try say(#"{"id": "a", "traits": ["staticText"], "value": "5"}"#) == "5")
    }

    @Test func repeatedPartsAreDroppedIgnoringCase() throws {
        #expect(try say(#"{"id": "a", "label": "Button", "traits": ["button"]}"#) == "Button")
        #expect(try say(#"{"id": "a", "label": "Play", "value": "play"}"#) == "Play")
    }

    @Test func toggleIsSwitchButtonWithOnOff() throws {
        #expect(try say(#"{"id": "a", "label": "Wi-Fi", "value": "1", "traits": ["toggle", "button"]}"#) == "Wi-Fi, on, switch button")
        #expect(
            try say(#"{"id": "a", "representation": {"control": "toggle", "label": "Shuffle", "isOn": false}}"#) == "Shuffle, off, switch button")
    }

    @Test func checkBoxesAndRadioButtonsSayWhetherTheyAreChecked() throws {
        #expect(try say(#"{"id": "a", "label": "Remember me", "value": "1", "traits": ["checkBox"]}"#) == "Remember me, checked, check box")
        #expect(try say(#"{"id": "a", "label": "Remember me", "value": "false", "traits": ["checkBox"]}"#) == "Remember me, not checked, check box")
        #expect(try say(#"{"id": "a", "label": "Select all", "value": "mixed", "traits": ["checkBox"]}"#) == "Select all, partially checked, check box")
        #expect(try say(#"{"id": "a", "label": "Red", "value": "checked", "traits": ["radioButton", "button"]}"#) == "Red, checked, radio button")
        // The most specific kind of button is the one word said; a check box is never also "switch button".
        #expect(try say(#"{"id": "a", "label": "Bold", "value": "0", "traits": ["checkBox", "toggle", "button", "menuItem"]}"#) == "Bold, not checked, check box, menu item")
        #expect(try say(#"{"id": "a", "value": "0", "traits": ["checkBox"]}"#) == "unlabelled, not checked, check box")
        #expect(try say(#"{"id": "a", "label": "Ton", "value": "1", "traits": ["checkBox"]}"#, extra: #""language": "de","#) == "Ton, aktiviert, Kontrollkästchen")
    }

    @Test func desktopRolesAndStates() throws {
        #expect(try say(#"{"id": "a", "label": "Font", "value": "Sans", "traits": ["comboBox", "collapsed"]}"#) == "Font, Sans, combo box")
        #expect(try say(#"{"id": "a", "label": "Name", "value": "Ada", "traits": ["textField"]}"#) == "Name, Ada, text field")
        #expect(try say(#"{"id": "a", "label": "File", "traits": ["menu", "expanded", "notEnabled"]}"#) == "File, menu, expanded, dimmed")
        #expect(try say(#"{"id": "a", "label": "Open", "traits": ["menuItem"]}"#) == "Open, menu item")
        #expect(try say(#"{"id": "a", "label": "Apples", "traits": ["listItem", "selected"]}"#) == "selected, Apples, list item")
        #expect(try say(#"{"id": "a", "label": "Copying", "value": "40%", "traits": ["progressBar"]}"#) == "Copying, 40%, progress bar")
        #expect(try say(#"{"id": "a", "label": "Question", "traits": ["dialog"]}"#) == "Question, dialog")
        #expect(try say(#"{"id": "a", "label": "Disk full", "traits": ["alert"]}"#) == "Disk full, alert")
        #expect(try say(#"{"id": "a", "label": "Fichier", "traits": ["menu", "collapsed"]}"#, extra: #""language": "fr","#) == "Fichier, menu, réduit")
        #expect(try say(#"{"id": "a", "label": "Nombre", "traits": ["textField"]}"#, extra: #""language": "es","#) == "Nombre, campo de texto")
    }

    @Test("a text field says what of its value is selected: all of it, or the selected words")
    func selectedText() throws {
        func field(_ value: String, _ range: String, extra: String = "") throws -> String {
            try say(#"{"id": "a", "label": "Name", "value": "\#(value)", "traits": ["textField"], "selectedTextRange": \#(range)}"#, extra: extra)
        }
        #expect(try field("Ada", "[0, 3]") == "Name, Ada, selected, text field")
        #expect(try field("Ada Lovelace", "[4, 8]") == "Name, Ada Lovelace, Lovelace selected, text field")
        // Offsets count characters (code points): "é" is one.
        #expect(try field("Café au lait", "[0, 4]") == "Name, Café au lait, Café selected, text field")
        // Cut at the value's end (the value may be set shorter before the selection is); nothing
        // selected, or only a blank, says nothing.
        #expect(try field("Ada", "[1, 40]") == "Name, Ada, da selected, text field")
        #expect(try field("Ada", "[0, 0]") == "Name, Ada, text field")
        #expect(try field("Ada", "[9, 2]") == "Name, Ada, text field")
        #expect(try field("Ada Lovelace", "[3, 1]") == "Name, Ada Lovelace, text field")
        #expect(try field("Ada", "[0, 3]", extra: #""language": "de","#) == "Name, Ada, ausgewählt, Textfeld")
        #expect(try field("Ada Lovelace", "[4, 8]", extra: #""language": "fr","#) == "Name, Ada Lovelace, Lovelace sélectionné, champ de texte")
        // A check box's value is no text to select in.
        #expect(try say(#"{"id": "a", "label": "Remember me", "value": "1", "traits": ["checkBox"], "selectedTextRange": [0, 1]}"#) == "Remember me, checked, check box")
    }

    @Test("an element given its place in a set says it after its role; a tab's given place wins over its count")
    func positionInSet() throws {
        #expect(try say(#"{"id": "a", "label": "Song 2", "traits": ["listItem", "selected"], "positionInSet": [2, 10000]}"#) == "selected, Song 2, list item, 2 of 10000")
        #expect(try say(#"{"id": "a", "label": "Song 2", "positionInSet": [2, 10000]}"#) == "Song 2, 2 of 10000")
        #expect(try say(#"{"id": "a", "label": "Lied 2", "traits": ["listItem"], "positionInSet": [2, 5]}"#, extra: #""language": "de","#) == "Lied 2, Listeneintrag, 2 von 5")
        let t = try tree(#"{"id": "bar", "traits": ["tabBar"], "children": [{"id": "t1", "label": "Home", "traits": ["tab"], "positionInSet": [3, 7]}, {"id": "t2", "label": "Search", "traits": ["tab"]}]}"#)
        #expect(t.utterance(atStop: 0).text == "Home, tab, 3 of 7")
        #expect(t.utterance(atStop: 1).text == "Search, tab, 2 of 2")
    }

    @Test func tabsInATabBarSayTheirPosition() throws {
        let t = try tree(
            #"{"id": "bar", "traits": ["tabBar"], "children": [{"id": "t1", "label": "Home", "traits": ["tab"]}, {"id": "t2", "label": "Search", "traits": ["tab", "selected"]}]}, {"id": "lone", "label": "Solo", "traits": ["tab"]}"#
        )
        #expect(utterances(t) == ["Home, tab, 1 of 2", "selected, Search, tab, 2 of 2", "Solo, tab"])
    }

    @Test func combineMergesDescendantLabelsAndActions() throws {
        let t = try tree(
            #"{"id": "c", "childBehavior": "combine", "traits": ["button"], "children": [{"id": "i", "traits": ["image"]}, {"id": "t", "label": "Favorites"}, {"id": "n", "value": "3", "actions": ["Increment"]}]}"#
        )
        #expect(t.utterance(atStop: 0) == Utterance(text: "Favorites, 3, button", hint: "actions available"))
        #expect(t.actions(atStop: 0) == ["Increment"])
        let labelled = try tree(#"{"id": "c", "label": "Own", "childBehavior": "combine", "children": [{"id": "t", "label": "Child"}]}"#)
        #expect(utterances(labelled) == ["Own"])
    }

    @Test func hintIsSeparateAndMentionsActions() throws {
        let t = try tree(
            #"{"id": "a", "label": "A", "hint": "Opens it"}, {"id": "b", "label": "B", "hint": "Opens it.", "actions": ["x"]}, {"id": "c", "label": "C", "hint": "Opens it", "actions": ["x"]}"#
        )
        #expect(t.utterance(atStop: 0).hint == "Opens it")
        #expect(t.utterance(atStop: 1).hint == "Opens it. actions available")
        #expect(t.utterance(atStop: 2).hint == "Opens it, actions available")
    }

    @Test func declarativeValueFormats() throws {
        #expect(try say(#"{"id": "a", "label": "Volume", "adjustable": {"value": 0.5, "min": 0, "max": 1, "step": 0.1, "format": "percent"}}"#) == "Volume, 50%, adjustable")
        #expect(try say(#"{"id": "a", "label": "Elapsed", "adjustable": {"value": 3725, "format": "time"}}"#) == "Elapsed, 1:02:05, adjustable")
        #expect(try say(#"{"id": "a", "label": "Stars", "adjustable": {"value": 4, "min": 0, "max": 5, "format": "{value} of 5"}}"#) == "Stars, 4 of 5, adjustable")
        #expect(try say(#"{"id": "a", "label": "Speed", "adjustable": {"value": 1.25}}"#) == "Speed, 1.25, adjustable")
    }

    @Test func languagePicksThePhraseTable() throws {
        #expect(try say(#"{"id": "a", "label": "Spielen", "traits": ["button", "notEnabled"]}"#, extra: #""language": "de-AT","#) == "Spielen, Taste, abgeblendet")
        #expect(try say(#"{"id": "a", "label": "Tempo", "adjustable": {"value": 2.5}}"#, extra: #""language": "de","#) == "Tempo, 2,5, anpassbar")
        #expect(try say(#"{"id": "a", "traits": ["button"]}"#, extra: #""language": "ja","#) == "unlabelled, button")
    }

    @Test func englishTableIsCompleteAndOthersOnlyUseKnownPhrases() {
        #expect(PhraseTable.forLanguage("en").missing.isEmpty)
        for (language, entry) in PhraseData.tables {
            for key in entry.phrases.keys { #expect(Phrase(rawValue: key) != nil, "\(language): \(key)") }
        }
        #expect(PhraseTable.languages.contains("en"))
    }
}

import NarratorSSIP
import Testing

@Suite struct SSIPWordsTests {
    @Test func keysReadAsWords() {
        #expect(SSIPWords.key("ctrl") == "control")
        #expect(SSIPWords.key("shift_a") == "shift a")
        #expect(SSIPWords.key("kp-enter") == "keypad enter")
        #expect(SSIPWords.key("kp_enter") == "keypad enter")
        #expect(SSIPWords.key("kp--") == "keypad minus")
        #expect(SSIPWords.key("space") == "space")
        #expect(SSIPWords.key("underscore") == "underscore")
        #expect(SSIPWords.key("double-quote") == "double quote")
        #expect(SSIPWords.key("control_alt_delete") == "control alt delete")
        #expect(SSIPWords.key("shift_.") == "shift period")
        #expect(SSIPWords.key("a") == "a")
        #expect(SSIPWords.key("_") == "underscore")
        #expect(SSIPWords.key("nosuchkey_xyz") == "nosuchkey xyz")
        #expect(SSIPWords.key("num-lock") == "num lock")
        #expect(SSIPWords.key("prior") == "page up")
        #expect(SSIPWords.key("F1") == "F1")
    }

    @Test func charactersReadAsWords() {
        #expect(SSIPWords.character("a") == "a")
        #expect(SSIPWords.character("T") == "T")
        #expect(SSIPWords.character(" ") == "space")
        #expect(SSIPWords.character("space") == "space")
        #expect(SSIPWords.character(".") == "period")
        #expect(SSIPWords.character("\n") == "new line")
        #expect(SSIPWords.character("?") == "question mark")
        #expect(SSIPWords.character("é") == "é")
        #expect(SSIPWords.character("underscore") == "underscore")
    }

    @Test func soundIconsAndSpelling() {
        #expect(SSIPWords.soundIcon("message") == "message")
        #expect(SSIPWords.soundIcon("window-close") == "window close")
        #expect(SSIPWords.soundIcon("nosuchicon") == "nosuchicon")
        #expect(SSIPWords.spelled("abc") == "a b c")
        #expect(SSIPWords.spelled("a b.") == "a space b period")
        #expect(SSIPWords.spelled("") == "")
    }
}

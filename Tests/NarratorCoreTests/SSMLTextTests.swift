import NarratorSpeechPlan
import Testing

/// The words of an SSML message, as replay times them and experiments count them.
@Suite struct SSMLTextTests {
    @Test func markupIsNotWords() {
        let orca = #"<speak><mark name="0:1"/>4 <mark name="2:10"/>percent &amp; rising.</speak>"#
        #expect(SSMLText.isSSML(orca) && SSMLText.isSSML("  <speak>x</speak>"))
        #expect(SSMLText.plain(orca).split(whereSeparator: \.isWhitespace) == ["4", "percent", "&", "rising."])
        // Text that is not SSML is left as it is, angle brackets and all.
        #expect(!SSMLText.isSSML("a <b> c") && SSMLText.plain("a <b> c &amp;") == "a <b> c &amp;")
    }
}

import Foundation
import NarratorDesktopHarness
import NarratorModel
import NarratorTestSupport
import Testing

extension RealApplications {
    /// The structural keys whose items keys.html lacks (a third-level heading, an image, a combo
    /// box, a check box, radio buttons, list items), each with its Shift pair, on
    /// Tests/Helpers/firefox/structure.html: the page of the Orca comparison (`make test-compare`),
    /// where Orca 43 says the same facts at the same keys.
    @Suite(
        "Firefox: every structural key on a page of every kind",
        .serialized,
        .enabled(if: HeadlessDesktop.isInstalled && FirefoxProfile.isInstalled
                 && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "Firefox ESR or the headless desktop is not installed (make test-deps)")
    )
    struct FirefoxStructureKeysTests {
        static let page = FirefoxPage.Page(
            path: URL(fileURLWithPath: FirefoxPage.page).deletingLastPathComponent().appendingPathComponent("structure.html").path,
            title: "Harbour club", firstHeading: nil,
            loaded: ["Harbour club, heading level 1", "Send, button", "Open every day from nine."])

        @Test("3, G, C, X, R, I, E, F, 1, 4 and 6, with Shift, say their item and its role, wrap with the wrap said, say when the page has none, and never reach the page")
        func everyKind() throws {
            let session = try FirefoxPage.open(Self.page)
            let steps: [(key: String, says: [String])] = [
                ("ctrl+Home", ["Harbour club, heading level 1"]),
                ("3", ["Winter work, heading level 3"]),
                ("3", ["wrapped to top, Winter work, heading level 3"]),
                ("shift+3", ["wrapped to bottom, Winter work, heading level 3"]),
                // A level the page has none of, in Orca's words.
                ("4", ["No more headings at level 4."]),
                ("6", ["No more headings at level 6."]),
                ("g", ["Club burgee, image"]),
                ("shift+g", ["wrapped to bottom, Club burgee, image"]),
                // A closed select is a labelled combo box with its value.
                ("c", ["Class, Keelboat, combo box"]),
                ("shift+c", ["wrapped to bottom, Class, Keelboat, combo box"]),
                ("x", ["Racing member, not checked, check box"]),
                ("shift+x", ["wrapped to bottom, Racing member, not checked, check box"]),
                ("r", ["Helm, not checked, radio button"]),
                ("r", ["Crew, not checked, radio button"]),
                ("r", ["wrapped to top, Helm, not checked, radio button"]),
                ("shift+r", ["wrapped to bottom, Crew, not checked, radio button"]),
                // List items: an item holding only a link is reached at its link.
                ("i", ["wrapped to top, News, link"]),
                ("i", ["Races, link"]),
                ("shift+i", ["News, link"]),
                ("e", ["Name, text field"]),
                ("shift+e", ["wrapped to bottom, Name, text field"]),
                ("f", ["Class, Keelboat, combo box"]),
                ("shift+f", ["Name, text field"]),
                ("1", ["wrapped to top, Harbour club, heading level 1"]),
                ("shift+1", ["wrapped to bottom, Harbour club, heading level 1"]),
            ]
            for (key, says) in steps {
                #expect(try session.hear(key) == says, "after \(key)")
            }
            // Browse mode's cursor on the field never made it the page's: none of the letters
            // and digits pressed was typed into it.
            let lines = try session.ctl("show", try session.pageTree).lines
            let field = lines.first { $0.contains("Name,") && $0.contains("text field") }
            #expect(field?.hasSuffix("Name, text field") == true, "\(field ?? "no field")")
        }
    }
}

@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// Browse mode's lines as laid out, and the moves by line, word and character over them.
@Suite struct PageLinesTests {
    typealias Object = ATSPIMappingTests

    static func row(_ y: Double, x: Double = 10, height: Double = 20) -> Rect { Rect(x: x, y: y, width: 100, height: height) }

    /// A heading; a paragraph's words around a link on the next row; two buttons side by side;
    /// a paragraph with no frame.
    static let lines = PageLines([
        .init("h", text: "Regatta", spoken: "Regatta, heading level 1", frame: row(0, height: 30)),
        .init("p~0", text: "See the", spoken: "See the", frame: row(40)),
        .init("a", text: "results", spoken: "results, link", frame: row(42, x: 60, height: 16)),
        .init("p~2", text: "of last year.", spoken: "of last year.", frame: row(40)),
        .init("ok", text: "OK", spoken: "OK, button", frame: row(70)),
        .init("no", text: "Cancel", spoken: "Cancel, button", frame: row(72, x: 120)),
        .init("q", text: "Quiet", spoken: "Quiet", frame: nil),
    ])

    @Test("Stops sharing a row are one line, said in order; a row below, or a stop with no frame, starts another")
    func linesAsLaidOut() {
        let lines = Self.lines
        #expect(lines.lines.map(\.spoken) == ["Regatta, heading level 1", "See the results, link of last year.", "OK, button Cancel, button", "Quiet"])
        #expect(lines.lines.map { String($0.text) } == ["Regatta", "See the results of last year.", "OK Cancel", "Quiet"])
        #expect(lines.place(of: "a") == PageLines.Place(line: 1, offset: 8))
        #expect(lines.element(at: PageLines.Place(line: 1, offset: 10)) == "a")
        #expect(lines.element(at: PageLines.Place(line: 1, offset: 15)) == "a")
        #expect(lines.element(at: PageLines.Place(line: 1, offset: 16)) == "p~2")
        // Rows that only touch (a tall heading's last pixels) are not one line.
        #expect(!PageLines.shareARow(Self.row(0, height: 30), Self.row(25)))
    }

    @Test("Up and Down go line by line and stop at the page's ends")
    func byLine() {
        let lines = Self.lines
        #expect(lines.nextLine(from: nil) == PageLines.Place(line: 0, offset: 0))
        #expect(lines.nextLine(from: PageLines.Place(line: 1, offset: 5)) == PageLines.Place(line: 2, offset: 0))
        #expect(lines.nextLine(from: PageLines.Place(line: 3, offset: 0)) == nil)
        #expect(lines.previousLine(from: PageLines.Place(line: 1, offset: 5)) == PageLines.Place(line: 0, offset: 0))
        #expect(lines.previousLine(from: PageLines.Place(line: 0, offset: 3)) == nil)
    }

    @Test("Left and Right go by character, named as said alone, on to the next line's first and the previous line's last")
    func byCharacter() {
        let lines = Self.lines
        var place = PageLines.Place(line: 1, offset: 0)
        var said: [String] = []
        for _ in 0..<4 {
            place = lines.nextCharacter(from: place) ?? place
            said.append(lines.character(at: place))
        }
        #expect(said == ["e", "e", "space", "t"])
        let end = lines.lineEnd(of: place)
        #expect(lines.character(at: end) == "period")
        #expect(lines.nextCharacter(from: end) == PageLines.Place(line: 2, offset: 0))
        #expect(lines.previousCharacter(from: PageLines.Place(line: 2, offset: 0)) == end)
        #expect(lines.lineStart(of: end) == PageLines.Place(line: 1, offset: 0))
        #expect(lines.previousCharacter(from: PageLines.Place(line: 0, offset: 0)) == nil)
        #expect(lines.nextCharacter(from: PageLines.Place(line: 3, offset: 4)) == nil)
    }

    @Test("Control+Right goes to the end of the next word and Control+Left to the start of the one before, as Orca's do, across lines; the word is what is said")
    func byWord() {
        let lines = Self.lines
        var place = PageLines.Place(line: 0, offset: 0)
        var said: [String] = []
        while let next = lines.nextWord(from: place) {
            place = next.place
            said.append(next.word)
        }
        #expect(said == ["Regatta", "See", "the", "results", "of", "last", "year.", "OK", "Cancel", "Quiet"])
        #expect(place == PageLines.Place(line: 3, offset: 5))
        // From the middle of a word, its whole; the cursor at its start.
        #expect(lines.previousWord(from: PageLines.Place(line: 1, offset: 10))?.word == "results")
        #expect(lines.previousWord(from: PageLines.Place(line: 1, offset: 10))?.place == PageLines.Place(line: 1, offset: 8))
        #expect(lines.previousWord(from: PageLines.Place(line: 1, offset: 8))?.word == "the")
        #expect(lines.previousWord(from: PageLines.Place(line: 2, offset: 0))?.word == "year.")
        #expect(lines.previousWord(from: PageLines.Place(line: 0, offset: 0)) == nil)
        #expect(lines.nextWord(from: place) == nil)
    }

    @Test("The mirror lays out a page read from the application: a paragraph's words are on the row of the link inside it, the heading above is a line of its own")
    func aPageReadFromTheApplication() {
        var mirror = ATSPIMirror()
        let embedded = "\u{FFFC}"
        let window = Object.object(
            1, .frame, "Regatta", extents: Rect(x: 0, y: 0, width: 800, height: 600),
            children: [
                Object.object(2, .documentWeb, "Regatta", states: Object.shown.union(.focusable), extents: Rect(x: 0, y: 50, width: 800, height: 550), children: [
                    Object.object(3, .heading, "Regatta", extents: Rect(x: 10, y: 60, width: 300, height: 30), text: "Regatta"),
                    Object.object(4, .paragraph, extents: Rect(x: 10, y: 100, width: 500, height: 20), text: "See the \(embedded) of last year.", children: [
                        Object.object(5, .link, "results", states: Object.shown.union(.focusable), extents: Rect(x: 70, y: 102, width: 50, height: 16)),
                    ]),
                    Object.object(6, .pushButton, "OK", states: Object.shown.union(.focusable), extents: Rect(x: 10, y: 130, width: 60, height: 24)),
                    Object.object(7, .pushButton, "Cancel", states: Object.shown.union(.focusable), extents: Rect(x: 80, y: 130, width: 60, height: 24)),
                ]),
            ])
        _ = mirror.windowRead(ATSPIMirror.WindowID(application: ":1.4", path: window.path), application: "Firefox", snapshot: window)
        let tree = mirror.trees.values.first ?? ""
        let lines = mirror.lines(tree: tree, page: "2")
        #expect(lines?.lines.map(\.spoken) == ["Regatta, heading", "See the results, link of last year.", "OK, button Cancel, button"])
    }
}

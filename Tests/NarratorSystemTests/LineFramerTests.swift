import Testing
@testable import NarratorSystem

@Suite struct LineFramerTests {
    private func feed(_ framer: inout LineFramer, _ text: String) -> [LineFramer.Frame] {
        Array(text.utf8).withUnsafeBytes { framer.append($0) }
    }

    @Test func splitsOnNewlinesAcrossChunks() {
        var framer = LineFramer(limit: 100)
        #expect(feed(&framer, "ab") == [])
        #expect(feed(&framer, "c\nde\n\nf") == [.line(Array("abc".utf8)), .line(Array("de".utf8)), .line([])])
        #expect(framer.finish() == .line(Array("f".utf8)))
    }

    @Test func reportsAnOverLongLineOnceAndResumesAfterItsNewline() {
        var framer = LineFramer(limit: 4)
        #expect(feed(&framer, "abc") == [])
        #expect(feed(&framer, "defg") == [.tooLong])
        #expect(framer.bufferedCount == 0)
        #expect(feed(&framer, "hijk") == [])
        #expect(feed(&framer, "l\nok\n") == [.line(Array("ok".utf8))])
        #expect(feed(&framer, "12345\nabcd\n") == [.tooLong, .line(Array("abcd".utf8))])
    }

    private func lines(_ texts: String...) -> [LineFramer.Frame] { texts.map { .line(Array($0.utf8)) } }

    @Test func crlfFramingEndsLinesOnlyAtCRLF() {
        var framer = LineFramer(limit: 100, framing: .crlf)
        // A bare LF is part of the line (Orca's SSML holds them); only CR LF ends it.
        #expect(feed(&framer, "SET SELF RATE 0\n") == [])
        #expect(feed(&framer, "\r\n") == lines("SET SELF RATE 0\n"))
        #expect(feed(&framer, "<speak>a\nb</speak>\r\n.\r\n") == lines("<speak>a\nb</speak>", "."))
        // A CR LF split across reads, and an empty line.
        #expect(feed(&framer, "QUIT\r") == [])
        #expect(feed(&framer, "\n\r\n") == lines("QUIT", ""))
        // A CR alone is part of the line too.
        #expect(feed(&framer, "a\rb\r\n") == lines("a\rb"))
    }

    @Test func crlfFramingNeverDeliversAnUnterminatedLine() {
        var framer = LineFramer(limit: 100, framing: .crlf)
        #expect(feed(&framer, "SPEAK\r\nhello\r\n.") == lines("SPEAK", "hello"))
        // The client left before ending its last line: nothing of it is a command.
        #expect(framer.finish() == nil)
    }

    @Test func crlfFramingBoundsBareLFLines() {
        var framer = LineFramer(limit: 8, framing: .crlf)
        // Bare LFs never end a line, so they count against the limit and cannot grow memory.
        #expect(feed(&framer, "\n\n\n\n\n\n\n\n\n") == [.tooLong])
        #expect(framer.bufferedCount == 0)
        #expect(feed(&framer, "\n\r\nok\r\n") == lines("ok"))
    }
}

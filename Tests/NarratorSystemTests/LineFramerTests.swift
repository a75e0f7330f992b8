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
}

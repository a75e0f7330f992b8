import NarratorSSIP
import Testing

/// Data mode after SPEAK, fed lines as the connection splits them (on CRLF only).
@Suite struct SSIPMessageReaderTests {
    func read(_ lines: [String], limit: Int = 1000) -> [SSIPMessageReader.Progress] {
        var reader = SSIPMessageReader(limit: limit)
        return lines.map { reader.take($0) }
    }

    @Test func aLineHoldingOnlyADotEndsTheMessage() {
        #expect(read(["hello world", "."]) == [.more, .complete("hello world")])
        #expect(read(["one", "two", "."]) == [.more, .more, .complete("one\ntwo")])
        // An empty message: the caller answers 227 OK MESSAGE CANCELED.
        #expect(read(["."]) == [.complete("")])
        #expect(read(["", "."]) == [.more, .complete("")])
    }

    /// spdsay_dotstuff.log: `..starts with dot\n.\nmiddle\r\n...two dots\r\n.\r\n`.
    @Test func dotStuffingIsUndoneAtTheStartOfEachLine() {
        #expect(read(["..starts with dot\n.\nmiddle", "...two dots", "."]) == [.more, .more, .complete(".starts with dot\n.\nmiddle\n..two dots")])
        #expect(read(["..", "."]) == [.more, .complete(".")])
        #expect(read(["a..b", "."]) == [.more, .complete("a..b")])
        #expect(read([". ", "."]) == [.more, .complete(". ")])
    }

    /// raw_errors.log and spdsay_pipe.log: a bare "\n" is text; only "\r\n.\r\n" ends the message.
    @Test func bareNewlinesAreMessageText() {
        #expect(read(["alpha\n.\nbeta", "."]) == [.more, .complete("alpha\n.\nbeta")])
        #expect(read(["line one\n", "."]) == [.more, .complete("line one\n")])
        #expect(read([".\n", "."]) == [.more, .complete(".\n")])
    }

    @Test func aMessageOverTheLimitIsReportedAndDiscarded() {
        #expect(read(["12345", "."], limit: 5) == [.more, .complete("12345")])
        #expect(read(["123456", "."], limit: 5) == [.more, .tooLong(limit: 5)])
        // The "\n" joining two lines counts.
        #expect(read(["12", "34", "."], limit: 5) == [.more, .more, .complete("12\n34")])
        #expect(read(["123", "45", "."], limit: 5) == [.more, .more, .tooLong(limit: 5)])
        #expect(read(["é", "."], limit: 1) == [.more, .tooLong(limit: 1)])
        #expect(read([String(repeating: "x", count: 10), "more", "and more", "."], limit: 4).last == .tooLong(limit: 4))
    }

    @Test func theReaderStartsAfreshAfterEachMessage() {
        var reader = SSIPMessageReader(limit: 5)
        #expect(reader.take("toolong") == .more)
        #expect(reader.isReading)
        #expect(reader.take(".") == .tooLong(limit: 5))
        #expect(!reader.isReading)
        #expect(reader.take("ok") == .more)
        #expect(reader.take(".") == .complete("ok"))
    }
}

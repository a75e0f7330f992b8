@testable import NarratorSystem
import Testing

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

    /// The bytes of a frame, whichever way it holds them.
    private func bytes(_ frame: LineFramer.Frame?) -> [UInt8]? {
        switch frame {
        case .line(let bytes)?: bytes
        case .pieces(let pieces)?: pieces.flatMap { $0 }
        default: nil
        }
    }

    @Test func aLongLineIsHandedOverInPiecesAndTheNextLineIsWhole() {
        var framer = LineFramer(limit: 1 << 20)
        let long = (0..<200_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        var frames: [LineFramer.Frame] = []
        // As a socket delivers it: 64 KiB reads, the last with the newline and the next line.
        for start in stride(from: 0, to: long.count, by: 65_536) {
            let piece = Array(long[start..<min(long.count, start + 65_536)])
            frames += piece.withUnsafeBytes { framer.append($0) }
        }
        frames += feed(&framer, "\nshort\n")
        #expect(frames.count == 2)
        guard case .pieces(let pieces) = frames.first else {
            Issue.record("not in pieces: \(frames.first.map { "\($0.lineLength) bytes" } ?? "nothing")")
            return
        }
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.count <= 2 * LineFramer.pieceSize })
        #expect(bytes(frames.first) == long)
        #expect(frames.first?.lineLength == long.count)
        #expect(frames.last == .line(Array("short".utf8)))
        #expect(framer.bufferedCount == 0)
        // Unterminated at the end of input, it is handed over the same way.
        for start in stride(from: 0, to: long.count, by: 65_536) {
            _ = Array(long[start..<min(long.count, start + 65_536)]).withUnsafeBytes { framer.append($0) }
        }
        #expect(bytes(framer.finish()) == long)
    }

    @Test func aLongCRLFLineLosesItsCREvenWhenItEndsAPiece() {
        var framer = LineFramer(limit: 1 << 20, framing: .crlf)
        // The CR is the last byte of a full piece, its LF the first of the next read.
        let long = Array(repeating: UInt8(ascii: "x"), count: LineFramer.pieceSize - 1) + [UInt8(ascii: "\r")]
        #expect(long.withUnsafeBytes { framer.append($0) } == [])
        let frames = feed(&framer, "\nnext\r\n")
        #expect(frames.count == 2)
        #expect(bytes(frames.first) == Array(repeating: UInt8(ascii: "x"), count: LineFramer.pieceSize - 1))
        #expect(frames.last == .line(Array("next".utf8)))
    }

    @Test func aLongLineOverTheLimitIsRefusedWhicheverPieceItReachesItIn() {
        var framer = LineFramer(limit: 150_000)
        let chunk = Array(repeating: UInt8(ascii: "y"), count: 65_536)
        var frames: [LineFramer.Frame] = []
        for _ in 0..<3 { frames += chunk.withUnsafeBytes { framer.append($0) } }
        #expect(frames == [.tooLong])
        #expect(framer.bufferedCount == 0)
        #expect(feed(&framer, "tail\nok\n") == [.line(Array("ok".utf8))])
    }
}

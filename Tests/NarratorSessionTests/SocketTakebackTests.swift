import NarratorBase
import NarratorSSIP
import Testing

/// The SSIP socket's path taken by another server is taken back, but not fought over forever.
@Suite struct SocketTakebackTests {
    static func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(seconds * 1e9)) }

    @Test func takenBackEachTimeUntilTheLimitWithinTheWindowThenLeftOnce() {
        var takeback = SocketTakeback(limit: 3, window: .seconds(60))
        #expect(takeback.lost(at: Self.at(0)) == .takeBack)
        #expect(takeback.lost(at: Self.at(10)) == .takeBack)
        #expect(takeback.lost(at: Self.at(20)) == .takeBack)
        #expect(takeback.lost(at: Self.at(30)) == .giveUp)
        #expect(takeback.gaveUp)
        #expect(takeback.lost(at: Self.at(500)) == .leave)
    }

    @Test func takeBacksOlderThanTheWindowDoNotCount() {
        var takeback = SocketTakeback(limit: 2, window: .seconds(60))
        #expect(takeback.lost(at: Self.at(0)) == .takeBack)
        #expect(takeback.lost(at: Self.at(59)) == .takeBack)
        // The first is a minute old: one in the window, so once more.
        #expect(takeback.lost(at: Self.at(60)) == .takeBack)
        #expect(takeback.lost(at: Self.at(61)) == .giveUp)
    }
}

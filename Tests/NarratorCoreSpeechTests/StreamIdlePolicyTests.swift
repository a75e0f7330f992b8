import NarratorBase
import NarratorSpeechPlan
import Testing

/// The stream is closed two seconds after the last audio, and only then, on a virtual clock.
@Suite("Closing the idle sound-server stream")
struct StreamIdlePolicyTests {
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test("a device just connected has its stream closed after the idle time unless something plays")
    func connectedDeviceCloses() {
        var policy = StreamIdlePolicy(closeAfter: .seconds(2), openAt: start)
        #expect(policy.timer == start + .seconds(2))
        #expect(policy.timerFired(at: start + .seconds(2)) == [.close])
        #expect(policy.phase == .closed)
        #expect(policy.timer == nil, "a closed stream sets no timer")
    }

    @Test("a device that opened no stream sets no timer")
    func unopenedDevice() {
        var policy = StreamIdlePolicy(closeAfter: .seconds(2))
        #expect(policy.timer == nil)
        #expect(policy.timerFired(at: start + .seconds(60)) == [])
    }

    @Test("the stream closes the idle time after the end of the last utterance, not of the first")
    func closesAfterLastUtterance() {
        var policy = StreamIdlePolicy(closeAfter: .seconds(2), openAt: start)
        #expect(policy.began(at: start + .milliseconds(500)) == [.cancelTimer])
        #expect(policy.ended(at: start + .milliseconds(1_500)) == [.armTimer(at: start + .milliseconds(3_500))])
        #expect(policy.began(at: start + .milliseconds(3_000)) == [.cancelTimer])
        #expect(policy.phase == .playing)
        #expect(policy.timerFired(at: start + .milliseconds(3_500)) == [], "a timer that fires while speech plays closes nothing")
        #expect(policy.ended(at: start + .milliseconds(4_000)) == [.armTimer(at: start + .milliseconds(6_000))])
        #expect(policy.timerFired(at: start + .milliseconds(5_999)) == [.armTimer(at: start + .milliseconds(6_000))],
                "a timer that fires a little early is armed again for the close")
        #expect(policy.timerFired(at: start + .milliseconds(6_000)) == [.close])
        #expect(policy.timerFired(at: start + .milliseconds(6_100)) == [], "the stream closes once")
    }

    @Test("after the close, the next utterance reopens the stream through its begin and closes again after it")
    func reopensAfterClose() {
        var policy = StreamIdlePolicy(closeAfter: .seconds(2), openAt: start)
        _ = policy.timerFired(at: start + .seconds(2))
        #expect(policy.began(at: start + .seconds(12)) == [], "nothing to cancel: the stream was closed")
        #expect(policy.phase == .playing)
        #expect(policy.ended(at: start + .seconds(13)) == [.armTimer(at: start + .seconds(15))])
        #expect(policy.timerFired(at: start + .seconds(15)) == [.close])
    }

    @Test("an end without a begin (a device connected in the middle of an utterance) changes nothing")
    func endWithoutBegin() {
        var policy = StreamIdlePolicy(closeAfter: .seconds(2), openAt: start)
        #expect(policy.ended(at: start + .seconds(1)) == [])
        #expect(policy.timer == start + .seconds(2))
    }
}

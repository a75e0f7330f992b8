import NarratorBase
import NarratorSpeechPlan
import Testing

/// The sound server's failover on a virtual clock: the deadlines of the device calls, stalls and
/// failures falling back to `null`, interrupts, and the status reported once per change.
@Suite("Sound-server failover: calls, stalls and interrupts")
struct OutputFailoverTests {
    @Test("the first connection is waited for, reported once, and arms only the idle close")
    func firstConnection() {
        var h = FailoverHarness()
        let start = h.now
        #expect(h.feed(.start) == [.connect(device1), .wait(.startUp, until: start + .milliseconds(500))])
        #expect(h.failover.status.detail == "not connected yet")
        #expect(h.feed(.connected(device1, name: "pulse"), after: .milliseconds(10))
                == [.report(FailoverHarness.connected), .wake(.startUp), .setTimer(start + .milliseconds(2_010))])
        #expect(h.feed(.waited(.startUp)) == [], "connected: no reconnect attempt is armed")
        #expect(h.failover.status == FailoverHarness.connected)
    }

    @Test("an utterance's calls get their deadlines: begin the stall timeout, a write its audio plus the buffer, the drain what was written")
    func deadlines() {
        var h = FailoverHarness()
        h.connect()
        let t = h.now
        #expect(h.feed(.engine(.begin(utterance(1))))
                == [.call(device1, call(1), .begin(utterance(1)), afterInterrupts: true), .cancelTimer,
                    .wait(.call(call(1)), until: t + .milliseconds(500))])
        #expect(h.feed(.callReturned(call(1))) == [.wake(.call(call(1)))])
        #expect(h.feed(.waited(.call(call(1)))) == [])
        #expect(h.feed(.engine(.write(chunk)))
                == [.call(device1, call(2), .write(chunk), afterInterrupts: false), .wait(.call(call(2)), until: t + .milliseconds(720))])
        #expect(h.returns(2) == [.wake(.call(call(2)))])
        #expect(h.feed(.engine(.write(chunk)))
                == [.call(device1, call(3), .write(chunk), afterInterrupts: false), .wait(.call(call(3)), until: t + .milliseconds(720))])
        #expect(h.returns(3) == [.wake(.call(call(3)))])
        #expect(h.feed(.engine(.end))
                == [.call(device1, call(4), .end, afterInterrupts: true), .wait(.call(call(4)), until: t + .milliseconds(540))],
                "the drain may last the 40 ms written, plus the stall timeout")
        #expect(h.feed(.callReturned(call(4)), after: .milliseconds(40)) == [.wake(.call(call(4)))])
        #expect(h.feed(.waited(.call(call(4)))) == [.setTimer(t + .milliseconds(2_040))], "the idle close counts from the drain's end")
        #expect(h.reports == [FailoverHarness.connected], "nothing changed")
    }

    @Test("the drain's deadline is bounded by the device's buffer, however much was written")
    func drainBoundedByBuffer() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        for n in 2...21 {
            h.feed(.engine(.write(chunk)))
            _ = h.returns(UInt64(n))
        }
        #expect(h.feed(.engine(.end)) == [.call(device1, call(22), .end, afterInterrupts: true), .wait(.call(call(22)), until: h.now + .milliseconds(700))])
    }

    @Test("a write that gets no answer is given up at its deadline: the device is silenced and let go, the rest plays on null")
    func stalledWrite() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        _ = h.returns(2)
        h.feed(.engine(.write(chunk)))
        #expect(h.feed(.waited(.call(call(3))), after: .milliseconds(719)) == [.wait(.call(call(3)), until: h.now + .milliseconds(1))],
                "woken before its deadline with no answer: it waits on")
        let t = h.now + .milliseconds(1)
        #expect(h.feed(.waited(.call(call(3))), after: .milliseconds(1))
                == [.interruptDevice(device1), .forget(device1), .report(stalled("0.7", "a write")),
                    .null(.begin(utterance(1))), .null(.write(chunk)), .setTimer(t + .seconds(1))])
        #expect(h.feed(.engine(.write(chunk))) == [.null(.write(chunk))])
        #expect(h.feed(.engine(.end)) == [.null(.end)])
        #expect(h.feed(.callReturned(call(3)), after: .seconds(5)) == [], "the given-up call's late answer changes nothing")
        #expect(h.reports == [FailoverHarness.connected, stalled("0.7", "a write")])
    }

    @Test("a drain that never ends is a stall too, and nothing is drained on null")
    func stalledDrain() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        for n in 2...6 {
            h.feed(.engine(.write(chunk)))
            _ = h.returns(UInt64(n))
        }
        h.feed(.engine(.end))
        #expect(h.feed(.waited(.call(call(7))), after: .milliseconds(600))
                == [.interruptDevice(device1), .forget(device1), .report(stalled("0.6", "the drain at the end of an utterance")),
                    .setTimer(h.now + .seconds(1))])
    }

    @Test("a begin that gets no answer is given up after the stall timeout, and the utterance starts on null")
    func stalledBegin() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        #expect(h.feed(.waited(.call(call(1))), after: .milliseconds(500))
                == [.interruptDevice(device1), .forget(device1), .report(stalled("0.5", "opening a stream")),
                    .null(.begin(utterance(1))), .setTimer(h.now + .seconds(1))])
        #expect(h.feed(.engine(.write(chunk))) == [.null(.write(chunk))])
    }

    @Test("the first outcome counts: an answer that comes as the deadline passes is not a stall")
    func answerAtTheDeadline() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        #expect(h.feed(.callReturned(call(1)), after: .milliseconds(500)) == [.wake(.call(call(1)))])
        #expect(h.feed(.waited(.call(call(1))), after: .milliseconds(3)) == [])
        #expect(h.failover.status == FailoverHarness.connected)
        #expect(h.feed(.interrupt) == [.interruptDevice(device1), .interruptNull], "nothing waits: nothing to release")
    }

    @Test("an interrupt during a stall releases the waiting write at once; the utterance is not sounded out on null")
    func interruptDuringStall() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        #expect(h.feed(.interrupt, after: .milliseconds(100)) == [.wake(.call(call(2))), .interruptDevice(device1), .interruptNull])
        #expect(h.feed(.waited(.call(call(2))), after: .seconds(2)) == [], "released by the interrupt, not overdue")
        #expect(h.feed(.callReturned(call(2))) == [], "the interrupt came first")
        #expect(h.feed(.engine(.write(chunk))) == [], "the rest of an interrupted utterance is dropped")
        #expect(h.feed(.engine(.end)) == [.call(device1, call(3), .end, afterInterrupts: true), .setTimer(h.now + .seconds(2))],
                "the device still gets its end, after the interrupt, and nobody waits for it")
        #expect(h.reports == [FailoverHarness.connected])
    }

    @Test("after an interrupt, the next utterance's begin is the call that stalls, and it plays on null")
    func nextBeginStallsAfterInterrupt() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        h.feed(.interrupt)
        h.feed(.waited(.call(call(2))))
        h.feed(.engine(.end))
        let t = h.now
        #expect(h.feed(.engine(.begin(utterance(2))))
                == [.call(device1, call(4), .begin(utterance(2)), afterInterrupts: true), .cancelTimer, .wait(.call(call(4)), until: t + .milliseconds(500))])
        #expect(h.feed(.waited(.call(call(4))), after: .milliseconds(500))
                == [.interruptDevice(device1), .forget(device1), .report(stalled("0.5", "opening a stream")),
                    .null(.begin(utterance(2))), .setTimer(h.now + .seconds(1))])
    }

    @Test("an interrupt before the utterance falls back keeps null from sounding it out")
    func interruptedThenFailed() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        h.feed(.callFailed(call(2), reason: "audio write failed: Connection terminated (code -1)"))
        #expect(h.feed(.interrupt) == [.interruptDevice(device1), .interruptNull], "the failure came first: nothing to release")
        #expect(h.feed(.waited(.call(call(2))))
                == [.forget(device1),
                    .report(OutputStatus(spec: .pulse, active: "null", fallback: true,
                                         detail: "lost pulse: audio write failed: Connection terminated (code -1)")),
                    .null(.write(chunk)), .setTimer(h.now + .seconds(1))],
                "the chunk is handed to null (which drops it, interrupted), and null does not begin the utterance")
    }

    @Test("an interrupt with nothing on a device only silences null")
    func interruptOnNull() {
        var h = FailoverHarness()
        h.feed(.start)
        h.feed(.connectFailed(device1, reason: "could not open the audio stream: Connection refused (code -1)"))
        h.feed(.waited(.startUp))
        #expect(h.feed(.engine(.begin(utterance(1)))) == [.null(.begin(utterance(1)))])
        #expect(h.feed(.interrupt) == [.interruptNull])
        #expect(h.feed(.engine(.write(chunk))) == [.null(.write(chunk))], "null drops it itself")
        #expect(h.feed(.engine(.end)) == [.null(.end)])
    }

    @Test("an interrupt just before the deadline wins over it, even when the wait ends after the deadline")
    func interruptBeforeDeadline() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        #expect(h.feed(.interrupt, after: .milliseconds(719)) == [.wake(.call(call(2))), .interruptDevice(device1), .interruptNull])
        #expect(h.feed(.waited(.call(call(2))), after: .milliseconds(5)) == [])
        #expect(h.reports == [FailoverHarness.connected], "not a stall")
    }

    @Test("a close that falls during an utterance (close during a write) closes nothing; the close comes the idle time after the drain")
    func closeDuringWrite() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))), after: .seconds(1))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        #expect(h.feed(.timerFired, after: .seconds(1)) == [], "a late firing of the cancelled close, during a write, closes nothing")
        #expect(h.returns(2) == [.wake(.call(call(2)))])
        h.feed(.engine(.end))
        h.feed(.callReturned(call(3)))
        #expect(h.feed(.waited(.call(call(3)))) == [.setTimer(h.now + .seconds(2))])
    }

    @Test("the idle stream is closed once, the idle time after the last drain; an early firing waits on; the next begin opens it")
    func idleClose() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.end))
        h.feed(.callReturned(call(2)))
        let ended = h.now
        #expect(h.feed(.waited(.call(call(2)))) == [.setTimer(ended + .seconds(2))])
        #expect(h.feed(.timerFired, after: .milliseconds(1_999)) == [.setTimer(ended + .seconds(2))], "an early firing is armed again")
        #expect(h.feed(.timerFired, after: .milliseconds(1)) == [.closeStream(device1)], "closed, and no timer is left")
        #expect(h.feed(.timerFired, after: .seconds(1)) == [], "closed once")
        #expect(h.feed(.engine(.begin(utterance(2))), after: .seconds(10))
                == [.call(device1, call(3), .begin(utterance(2)), afterInterrupts: true), .wait(.call(call(3)), until: h.now + .milliseconds(500))],
                "its begin reopens the stream, after the close on the player thread")
    }
}

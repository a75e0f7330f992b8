import NarratorBase
import NarratorSpeechPlan
import Testing

/// The failover's connections on a virtual clock: start-up, the reconnect attempts, a server that
/// stops answering and comes back, and the statuses reported (once per change).
@Suite("Sound-server failover: connecting and reconnecting")
struct OutputFailoverConnectionTests {
    @Test("a first connection that hangs holds start-up for the stall timeout only, then speech goes to null until it completes")
    func hangingFirstConnection() {
        var h = FailoverHarness()
        h.feed(.start)
        #expect(h.feed(.waited(.startUp), after: .milliseconds(200)) == [.wait(.startUp, until: h.now + .milliseconds(300))],
                "a wake with the attempt still under way waits on")
        let notAnswered = OutputStatus(
            spec: .pulse, active: "null", fallback: true,
            detail: "the sound server has not answered for 0.5 s; speech goes to null until it answers", stalled: true)
        let t = h.now + .milliseconds(300)
        #expect(h.feed(.waited(.startUp), after: .milliseconds(300)) == [.report(notAnswered), .setTimer(t + .seconds(1))])
        #expect(h.feed(.engine(.begin(utterance(1)))) == [.null(.begin(utterance(1)))])
        #expect(h.feed(.timerFired, after: .seconds(1)) == [.setTimer(t + .seconds(2))], "the hung attempt holds up the next")
        #expect(h.feed(.connected(device1, name: "pulse"), after: .milliseconds(100)) == [.report(FailoverHarness.connected)],
                "the first retry due comes before the idle close: the timer stays")
        #expect(h.feed(.engine(.write(chunk))) == [.null(.write(chunk))], "the utterance begun on null ends there")
        #expect(h.feed(.engine(.end)) == [.null(.end)])
        #expect(h.feed(.timerFired, after: .milliseconds(900)) == [.setTimer(t + .milliseconds(3_100))],
                "the retry due once connected ends the chain; the idle close remains")
        #expect(h.reports == [notAnswered, FailoverHarness.connected])
    }

    @Test("a server that is not there at start-up: said once for auto, however often the attempts fail the same way")
    func failingTheSameWayIsNotAChange() {
        var h = FailoverHarness(OutputFailover.Configuration(spec: .auto, retryInterval: .seconds(1), stallTimeout: .milliseconds(500)))
        let reason = "could not open the audio stream: No such file or directory (code -2)"
        let missing = OutputStatus(spec: .auto, active: "null", fallback: true, detail: "no sound server reachable: \(reason)")
        h.feed(.start)
        #expect(h.feed(.connectFailed(device1, reason: reason)) == [.report(missing), .wake(.startUp)])
        #expect(h.feed(.waited(.startUp)) == [.setTimer(h.now + .seconds(1))])
        for n in UInt64(2)...5 {
            #expect(h.feed(.timerFired, after: .seconds(1)) == [.connect(OutputDeviceID(n)), .setTimer(h.now + .seconds(1))])
            #expect(h.feed(.connectFailed(OutputDeviceID(n), reason: reason)) == [])
        }
        #expect(h.reports == [missing])
    }

    @Test("a server gone mid-utterance: lost, reconnecting every retry interval with the last reason, then back, each said once")
    func serverGoneThenBack() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        let writeFailed = "audio write failed: Connection terminated (code -1)"
        #expect(h.feed(.callFailed(call(2), reason: writeFailed)) == [.wake(.call(call(2)))])
        let lost = OutputStatus(spec: .pulse, active: "null", fallback: true, detail: "lost pulse: \(writeFailed)")
        let t = h.now
        #expect(h.feed(.waited(.call(call(2))))
                == [.forget(device1), .report(lost), .null(.begin(utterance(1))), .null(.write(chunk)), .setTimer(t + .seconds(1))])
        #expect(h.feed(.engine(.end)) == [.null(.end)])

        let refused = "could not open the audio stream: Connection refused (code -1)"
        let reconnecting = OutputStatus(
            spec: .pulse, active: "null", fallback: true,
            detail: "lost pulse: \(writeFailed); reconnecting every 1.0 s (last attempt: \(refused))")
        #expect(h.feed(.timerFired, after: .seconds(1)) == [.connect(device2), .setTimer(t + .seconds(2))])
        #expect(h.feed(.connectFailed(device2, reason: refused)) == [.report(reconnecting)])
        #expect(h.feed(.timerFired, after: .seconds(1)) == [.connect(device3), .setTimer(t + .seconds(3))])
        #expect(h.feed(.connectFailed(device3, reason: refused)) == [], "the same failure again is no change")
        #expect(h.feed(.timerFired, after: .seconds(1)) == [.connect(device4), .setTimer(t + .seconds(4))])
        #expect(h.feed(.connected(device4, name: "pulse")) == [.report(FailoverHarness.connected)])
        #expect(h.reports == [FailoverHarness.connected, lost, reconnecting, FailoverHarness.connected])

        let back = h.now
        #expect(h.feed(.engine(.begin(utterance(2))))
                == [.call(device4, call(3), .begin(utterance(2)), afterInterrupts: true), .wait(.call(call(3)), until: back + .milliseconds(500))],
                "the next utterance goes to the new device; the timer still holds the retry due")
    }

    @Test("a stalled server that comes back: attempts hang one at a time, nothing is said again, and the output switches back")
    func stalledServerComesBack() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        h.feed(.waited(.call(call(2))), after: .milliseconds(720))
        let t = h.now
        #expect(h.feed(.timerFired, after: .seconds(1)) == [.connect(device2), .setTimer(t + .seconds(2))])
        for n in 2...5 {
            #expect(h.feed(.timerFired, after: .seconds(1)) == [.setTimer(t + .seconds(n + 1))], "the hung attempt holds up the next")
        }
        #expect(h.feed(.attemptReconnect) == [], "one attempt at a time")
        #expect(h.failover.status == stalled("0.7", "a write"), "status keeps the cause while the server does not answer")
        let answered = h.now + .milliseconds(300)
        #expect(h.feed(.connected(device2, name: "pulse"), after: .milliseconds(300)) == [.report(FailoverHarness.connected)])
        #expect(h.feed(.timerFired, after: .milliseconds(700)) == [.setTimer(answered + .seconds(2))])
        #expect(h.feed(.attemptReconnect) == [], "connected: no attempt")
        #expect(h.reports == [FailoverHarness.connected, stalled("0.7", "a write"), FailoverHarness.connected])
    }

    @Test("repeated stalls are said once each: the rest of a stalled utterance, and the utterances after it, say nothing more")
    func repeatedStallsReportedOnce() {
        var h = FailoverHarness()
        h.connect()
        h.feed(.engine(.begin(utterance(1))))
        _ = h.returns(1)
        h.feed(.engine(.write(chunk)))
        h.feed(.waited(.call(call(2))), after: .milliseconds(720))
        for _ in 0..<10 { h.feed(.engine(.write(chunk))) }
        h.feed(.engine(.end))
        for n in UInt64(2)...4 {
            h.feed(.engine(.begin(utterance(n))), after: .milliseconds(300))
            h.feed(.engine(.write(chunk)))
            h.feed(.engine(.end))
        }
        #expect(h.reports == [FailoverHarness.connected, stalled("0.7", "a write")])

        // The server comes back, then stalls again: that is a new change, said once more.
        h.feed(.timerFired, after: .seconds(1))
        h.feed(.connected(device2, name: "pulse"))
        h.feed(.engine(.begin(utterance(5))))
        h.feed(.waited(.call(call(3))), after: .milliseconds(500))
        #expect(h.reports == [FailoverHarness.connected, stalled("0.7", "a write"), FailoverHarness.connected, stalled("0.5", "opening a stream")])
    }

    @Test("a device that connects in the middle of an utterance on null takes the next utterance, not the rest of this one")
    func connectedMidUtterance() {
        var h = FailoverHarness()
        h.feed(.start)
        h.feed(.waited(.startUp), after: .milliseconds(500))
        h.feed(.engine(.begin(utterance(1))))
        h.feed(.connected(device1, name: "pulse"))
        #expect(h.feed(.engine(.write(chunk))) == [.null(.write(chunk))])
        #expect(h.feed(.interrupt) == [.interruptNull], "the device does not have this utterance")
        #expect(h.feed(.engine(.end)) == [.null(.end)])
        #expect(h.feed(.engine(.begin(utterance(2))))
                == [.call(device1, call(1), .begin(utterance(2)), afterInterrupts: true), .wait(.call(call(1)), until: h.now + .milliseconds(500))])
    }

    @Test("an attempt asked for directly starts at once while disconnected, and what a stale attempt reports is let go")
    func directAttemptAndStaleResults() {
        var h = FailoverHarness()
        h.feed(.start)
        h.feed(.connectFailed(device1, reason: "could not open the audio stream: Connection refused (code -1)"))
        h.feed(.waited(.startUp))
        #expect(h.feed(.attemptReconnect) == [.connect(device2)])
        #expect(h.feed(.connectFailed(device1, reason: "late")) == [], "only the attempt under way counts")
        #expect(h.feed(.connected(device3, name: "pulse")) == [.forget(device3)], "a device nobody asked for is let go")
        #expect(h.feed(.connected(device2, name: "pulse")) == [.report(FailoverHarness.connected)])
        #expect(h.feed(.callReturned(call(9))) == [], "no call of that id waits")
    }

    @Test("status transitions are each reported exactly once over a whole outage")
    func transitionsReportedOnce() {
        var h = FailoverHarness()
        h.feed(.start)
        h.feed(.waited(.startUp), after: .milliseconds(500))
        h.feed(.connected(device1, name: "pulse"), after: .milliseconds(100))
        h.feed(.engine(.begin(utterance(1))))
        h.feed(.callFailed(call(1), reason: "could not open the audio stream: Broken pipe (code -32)"))
        h.feed(.waited(.call(call(1))))
        for n in UInt64(2)...4 {
            h.feed(.timerFired, after: .seconds(1))
            h.feed(.connectFailed(OutputDeviceID(n), reason: "could not open the audio stream: Connection refused (code -111)"))
        }
        h.feed(.timerFired, after: .seconds(1))
        h.feed(.connected(OutputDeviceID(5), name: "pulse"))
        let notAnswered = "the sound server has not answered for 0.5 s; speech goes to null until it answers"
        let lost = "lost pulse: could not open the audio stream: Broken pipe (code -32)"
        let reconnecting = "\(lost); reconnecting every 1.0 s (last attempt: could not open the audio stream: Connection refused (code -111))"
        #expect(h.reports.map(\.detail) == [notAnswered, nil, lost, reconnecting, nil])
        #expect(h.reports.map(\.stalled) == [true, false, false, false, false])
        #expect(h.reports.map(\.active) == ["null", "pulse", "null", "null", "pulse"])
    }
}

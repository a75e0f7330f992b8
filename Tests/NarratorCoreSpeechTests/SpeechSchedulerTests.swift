import NarratorBase
import NarratorSpeechPlan
import Testing

@Suite("Speech scheduler: focus, value and hints")
struct FocusSchedulingTests {
    @Test("a focus utterance starts at once when nothing plays")
    func focusStartsImmediately() {
        var h = Harness()
        let a = h.say(.focus, "OK, button")
        #expect(h.playingID == a)
        #expect(h.phases(a) == [.queued, .started])
        #expect(h.commands == [.play(UtteranceRequest(id: a, kind: .focus, text: "OK, button"))])
    }

    @Test("a new focus interrupts the focus speech that plays, in the same step")
    func focusInterruptsFocus() {
        var h = Harness()
        let a = h.say(.focus)
        let b = h.say(.focus)
        #expect(h.phases(a) == [.queued, .started, .interrupted(by: b)])
        #expect(h.playingID == b)
        #expect(Array(h.commands.suffix(2)) == [.stop(a), .play(UtteranceRequest(id: b, kind: .focus, text: "text"))])
        // The stop command and the interrupted event carry the instant of the request.
        #expect(h.events.first { $0.utterance == a && $0.phase == .interrupted(by: b) }?.at == h.now)
    }

    @Test("the hint follows its focus utterance after the configured pause")
    func hintAfterPause() {
        var h = Harness(SpeechSchedulerConfiguration(hintDelay: .milliseconds(400)))
        let a = h.say(.focus)
        let hint = h.say(.hint, "double tap to activate")
        #expect(h.phases(hint) == [.queued])
        h.advance(.milliseconds(900))
        #expect(h.phases(hint) == [.queued], "the hint waits for its focus utterance to end")
        h.finish(a)
        let finishedAt = h.now
        #expect(h.scheduler.nextDeadline == finishedAt + .milliseconds(400))
        h.advance(.milliseconds(399))
        #expect(h.playingID == nil)
        h.advance(.milliseconds(1))
        #expect(h.playingID == hint)
        #expect(h.events.last == SpeechEvent(utterance: hint, kind: .hint, phase: .started, at: finishedAt + .milliseconds(400)))
    }

    @Test("a hint is dropped when focus moves before it starts")
    func hintDroppedOnFocusMove() {
        var h = Harness()
        let a = h.say(.focus)
        let hint = h.say(.hint)
        h.finish(a)
        h.advance(.milliseconds(200))
        let b = h.say(.focus)
        #expect(h.phases(hint) == [.queued, .dropped(.focusMoved)])
        #expect(h.playingID == b)
        h.finish(b)
        h.advance(.seconds(2))
        #expect(h.playingID == nil, "the old hint never plays")
    }

    @Test("a playing hint is interrupted by a focus move")
    func playingHintInterrupted() {
        var h = Harness()
        let a = h.say(.focus)
        let hint = h.say(.hint)
        h.finish(a)
        h.advance(.milliseconds(400))
        #expect(h.playingID == hint)
        let b = h.say(.focus)
        #expect(h.phases(hint).last == .interrupted(by: b))
    }

    @Test("a hint is dropped with its focus utterance when that one is interrupted")
    func hintDroppedWithInterruptedOwner() {
        var h = Harness()
        h.say(.focus)
        let hint = h.say(.hint)
        h.say(.announcement(.default))
        #expect(h.phases(hint) == [.queued, .dropped(.focusInterrupted)])
    }

    @Test("hints switched off are dropped at once, and switching off drops a pending one")
    func hintsDisabled() {
        var h = Harness(SpeechSchedulerConfiguration(hintsEnabled: false))
        let a = h.say(.focus)
        let first = h.say(.hint)
        #expect(h.phases(first) == [.queued, .dropped(.hintsDisabled)])
        h.configure(SpeechSchedulerConfiguration(hintsEnabled: true))
        let second = h.say(.hint)
        h.configure(SpeechSchedulerConfiguration(hintsEnabled: false))
        #expect(h.phases(second) == [.queued, .dropped(.hintsDisabled)])
        h.finish(a)
        h.advance(.seconds(1))
        #expect(h.playingID == nil)
    }

    @Test("a hint without a focus utterance is dropped")
    func hintWithoutFocus() {
        var h = Harness()
        let hint = h.say(.hint)
        #expect(h.phases(hint) == [.queued, .dropped(.noFocus)])
    }

    @Test("a hint that arrives after its focus ended still waits out the pause")
    func lateHint() {
        var h = Harness()
        let a = h.say(.focus)
        h.finish(a)
        h.advance(.milliseconds(100))
        let hint = h.say(.hint)
        #expect(h.playingID == nil)
        h.advance(.milliseconds(300))
        #expect(h.playingID == hint)
    }

    @Test("a value change interrupts the previous value and speaks only the new one")
    func valueInterruptsValue() {
        var h = Harness()
        let focus = h.say(.focus, "volume, 3, adjustable")
        let hint = h.say(.hint)
        let v4 = h.say(.value, "4")
        let v5 = h.say(.value, "5")
        #expect(h.phases(focus).last == .interrupted(by: v4))
        #expect(h.phases(hint).last == .dropped(.focusMoved))
        #expect(h.phases(v4) == [.queued, .started, .interrupted(by: v5)])
        #expect(h.playingID == v5)
        h.finish(v5)
        #expect(h.scheduler.isIdle)
    }

    @Test("finished reports for utterances that no longer play are ignored")
    func staleFinished() {
        var h = Harness()
        let a = h.say(.focus)
        let b = h.say(.focus)
        h.finish(a)
        #expect(h.playingID == b)
        #expect(h.phases(a).last == .interrupted(by: b))
    }

    @Test("stopAll interrupts what plays and drops what waits")
    func stopAll() {
        var h = Harness()
        let a = h.say(.focus)
        let hint = h.say(.hint)
        let low = h.say(.announcement(.low))
        h.stopAll()
        #expect(h.phases(a).last == .interrupted(by: nil))
        #expect(h.phases(hint).last == .dropped(.stopped))
        #expect(h.phases(low).last == .dropped(.stopped))
        #expect(h.commands.last == .stop(a))
        #expect(h.scheduler.isIdle)
    }

    @Test("every utterance ends with exactly one final event")
    func oneFinalEvent() {
        var h = Harness()
        var ids: [UtteranceID] = []
        ids.append(h.say(.focus))
        ids.append(h.say(.hint))
        ids.append(h.say(.announcement(.low)))
        ids.append(h.say(.announcement(.high)))
        ids.append(h.say(.focus))
        ids.append(h.say(.announcement(.default)))
        h.finish(ids[3])
        ids.append(h.say(.value))
        h.stopAll()
        for id in ids {
            #expect(h.events.filter { $0.utterance == id && $0.isFinal }.count == 1, "utterance \(id)")
            #expect(h.phases(id).first == .queued)
        }
    }
}

@Suite("Speech scheduler: announcement priorities")
struct AnnouncementSchedulingTests {
    @Test("low waits for the playing speech and its hint, then plays")
    func lowWaits() {
        var h = Harness()
        let a = h.say(.focus)
        let hint = h.say(.hint)
        let low = h.say(.announcement(.low))
        #expect(h.phases(low) == [.queued])
        h.finish(a)
        #expect(h.playingID == nil, "the pause before the hint is not a gap for low announcements")
        h.advance(.milliseconds(400))
        #expect(h.playingID == hint)
        h.finish(hint)
        #expect(h.playingID == low)
    }

    @Test("low plays at once when nothing is pending")
    func lowWhenIdle() {
        var h = Harness()
        let low = h.say(.announcement(.low))
        #expect(h.playingID == low)
        let focus = h.say(.focus)
        #expect(h.phases(low).last == .interrupted(by: focus))
    }

    @Test("default interrupts focus speech and is interrupted by the next focus")
    func defaultInterruptsAndIsInterruptible() {
        var h = Harness()
        let a = h.say(.focus)
        let ann = h.say(.announcement(.default))
        #expect(h.phases(a).last == .interrupted(by: ann))
        let b = h.say(.focus)
        #expect(h.phases(ann).last == .interrupted(by: b))
        let ann2 = h.say(.announcement(.default))
        let ann3 = h.say(.announcement(.default))
        #expect(h.phases(ann2).last == .interrupted(by: ann3))
    }

    @Test("high interrupts everything and nothing interrupts it")
    func highIsNotInterrupted() {
        var h = Harness()
        let low = h.say(.announcement(.low))
        let high = h.say(.announcement(.high))
        #expect(h.phases(low).last == .interrupted(by: high))
        let focus = h.say(.focus)
        let ann = h.say(.announcement(.default))
        let high2 = h.say(.announcement(.high))
        #expect(h.playingID == high)
        #expect(!h.commands.contains(.stop(high)))
        // After the high one: the second high, then default, then the focus that waited.
        #expect(h.scheduler.waiting.map(\.id) == [high2, ann, focus])
        h.finish(high)
        #expect(h.playingID == high2)
        h.finish(high2)
        #expect(h.playingID == ann)
        h.finish(ann)
        #expect(h.playingID == focus)
    }

    @Test("focus moves while a high announcement plays keep only the newest focus")
    func focusQueuedBehindHigh() {
        var h = Harness()
        let high = h.say(.announcement(.high))
        let f1 = h.say(.focus)
        let f2 = h.say(.focus)
        let hint = h.say(.hint)
        #expect(h.phases(f1) == [.queued, .dropped(.focusMoved)])
        h.finish(high)
        #expect(h.playingID == f2)
        h.finish(f2)
        h.advance(.milliseconds(400))
        #expect(h.playingID == hint)
    }

    @Test("the policy table: what interrupts what")
    func policyTable() {
        let speech: [SpeechKind] = [.focus, .value, .speak, .hint]
        let all = speech + AnnouncementPriority.allCases.map(SpeechKind.announcement)
        for playing in all {
            for incoming in all {
                let expected: SpeechPolicy.Arrival
                if playing == .announcement(.high) || incoming == .hint || incoming == .announcement(.low) {
                    expected = .wait
                } else {
                    expected = .interrupt
                }
                #expect(SpeechPolicy.arrival(of: incoming, while: playing) == expected, "\(incoming.name) over \(playing.name)")
            }
        }
    }

    @Test("kind names round-trip")
    func kindNames() {
        let all: [SpeechKind] = [.focus, .value, .speak, .hint] + AnnouncementPriority.allCases.map(SpeechKind.announcement)
        for kind in all {
            #expect(SpeechKind(name: kind.name) == kind)
        }
        #expect(SpeechKind(name: "announcement-urgent") == nil)
    }
}

@Suite("Monotonic instants")
struct MonotonicInstantTests {
    @Test("adding and subtracting durations")
    func arithmetic() {
        let t = MonotonicInstant(nanoseconds: 5_000_000)
        #expect((t + .milliseconds(2)).nanoseconds == 7_000_000)
        #expect((t + .milliseconds(-10)).nanoseconds == 0)
        #expect((t + .milliseconds(3)) - t == .milliseconds(3))
        #expect(t - (t + .milliseconds(3)) == .milliseconds(-3))
    }
}

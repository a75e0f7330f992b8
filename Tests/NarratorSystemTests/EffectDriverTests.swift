import NarratorBase
import NarratorSystem
import Testing

/// A machine that says what it is told and, when asked, has the shell feed it more: what the
/// driver's one re-entrancy rule is about.
private struct Echo: EffectMachine {
    enum Input: Equatable {
        case words([String])
        /// Say `before`, have the shell feed `fedBack` at once, then say `after`.
        case nested(before: String, fedBack: [Input], after: String)
    }

    enum Effect: Equatable {
        case say(String)
        case feed(Input)
    }

    /// The instant each input was handled at.
    var instants: [MonotonicInstant] = []

    mutating func handle(_ input: Input, at now: MonotonicInstant) -> [Effect] {
        instants.append(now)
        switch input {
        case .words(let words): return words.map(Effect.say)
        case .nested(let before, let fedBack, let after): return [.say(before)] + fedBack.map(Effect.feed) + [.say(after)]
        }
    }
}

/// The shell around ``Echo``: it records what is said and feeds back what it is asked to.
private final class EchoShell {
    let driver: EffectDriver<Echo>
    var said: [String] = []

    init(clock: @escaping () -> MonotonicInstant) {
        driver = EffectDriver(Echo(), clock: clock)
    }

    func feed(_ input: Echo.Input) {
        driver.feed(input) { effect in
            switch effect {
            case .say(let word): said.append(word)
            case .feed(let more): feed(more)
            }
        }
    }
}

@Suite struct EffectDriverTests {
    /// An input fed back while effects are carried out waits until every effect of the input
    /// before it is done: the machine's order is the order things happen in.
    @Test func anInputFedWhileEffectsAreCarriedOutIsTakenAfterThem() {
        let shell = EchoShell(clock: { MonotonicInstant(nanoseconds: 0) })
        shell.feed(.nested(before: "first", fedBack: [.words(["fed back"])], after: "second"))
        #expect(shell.said == ["first", "second", "fed back"])
    }

    /// Several inputs fed back are taken in the order they came, each one's effects (and what
    /// they feed back in turn) after those before it.
    @Test func inputsFedBackAreTakenInTheOrderTheyCame() {
        let shell = EchoShell(clock: { MonotonicInstant(nanoseconds: 0) })
        shell.feed(
            .nested(
                before: "a", fedBack: [.nested(before: "b", fedBack: [.words(["d"])], after: "b'"), .words(["c", "c'"])], after: "a'"))
        #expect(shell.said == ["a", "a'", "b", "b'", "c", "c'", "d"])
        // Once it is all carried out, the next input is handled at once.
        shell.feed(.words(["e"]))
        #expect(shell.said.last == "e")
    }

    /// Each input is handled at the instant the driver's clock says when it is taken.
    @Test func eachInputIsHandledOnTheInjectedClock() {
        var now = MonotonicInstant(nanoseconds: 5_000)
        let shell = EchoShell(clock: { now })
        shell.feed(.words(["x"]))
        now = now + .seconds(3)
        shell.feed(.words(["y"]))
        #expect(shell.driver.machine.instants == [MonotonicInstant(nanoseconds: 5_000), MonotonicInstant(nanoseconds: 5_000) + .seconds(3)])
    }
}

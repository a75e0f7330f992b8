import NarratorBase
import Glibc
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

/// A machine with a timer: asked to ring in some seconds, it sets its timer for then and says
/// how long it waited when the timer fires. What it is told of time is only the driver's clock.
private struct Alarm: EffectMachine {
    enum Input {
        case line(ClientID, String)
        case timerFired
    }

    enum Effect {
        case setTimer(MonotonicInstant)
        case reply(ClientID, String)
    }

    private var waiting: (client: ClientID, since: MonotonicInstant)?

    mutating func handle(_ input: Input, at now: MonotonicInstant) -> [Effect] {
        switch input {
        case .line(let client, let line):
            guard let seconds = Int(line.split(separator: " ").last ?? "") else { return [.reply(client, "ring in what?")] }
            waiting = (client, now)
            return [.setTimer(now + .seconds(seconds)), .reply(client, "set")]
        case .timerFired:
            guard let (client, since) = waiting else { return [] }
            waiting = nil
            return [.reply(client, "rang after \((now - since).components.seconds) s")]
        }
    }
}

/// The alarm's shell on a loop: lines in, the timer on the loop, replies out.
private final class AlarmShell: ConnectionHandler {
    enum Message: Sendable { case rang }

    let driver: EffectDriver<Alarm>
    let clock: VirtualClock

    init(clock: VirtualClock) {
        self.clock = clock
        driver = EffectDriver(Alarm(), clock: { clock.now })
    }

    func accept(_ client: ClientID, peer: PeerCredentials, loop: any ConnectionLoop<Message>) {}

    func receive(_ input: ClientInput, from client: ClientID, loop: any ConnectionLoop<Message>) {
        if case .line(let line) = input { feed(.line(client, line), loop) }
    }

    func handle(_ message: Message, loop: any ConnectionLoop<Message>) {
        feed(.timerFired, loop)
    }

    func log(_ event: LoopLogEvent) {}

    private func feed(_ input: Alarm.Input, _ loop: any ConnectionLoop<Message>) {
        driver.feed(input) { effect in
            switch effect {
            case .setTimer(let deadline): loop.schedule(after: deadline - clock.now, deliver: .rang)
            case .reply(let client, let text): loop.send(text, to: client)
            }
        }
    }
}

@Suite struct DrivenTimerTests {
    /// The machine's timer is the loop's, on the virtual clock: it rings when the clock reaches
    /// it and not before, and the machine sees the clock's time.
    @Test func aMachinesTimerRingsWhenTheVirtualClockReachesIt() throws {
        let clock = VirtualClock()
        let loop = try InMemoryLoop(listeners: [0: .newline], clock: clock, inbox: LoopInbox(), handler: AlarmShell(clock: clock))
        let client = try #require(loop.connect(to: 0, peer: PeerCredentials(pid: 1, uid: getuid(), gid: getgid())))
        loop.send(text: "ring in 3\n", from: client)
        #expect(loop.readText(client) == "set\n")
        loop.advance(by: .seconds(2))
        #expect(loop.readText(client) == "")
        loop.advance(by: .seconds(1))
        #expect(loop.readText(client) == "rang after 3 s\n")
    }
}

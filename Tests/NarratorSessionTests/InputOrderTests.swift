import NarratorBase
import NarratorCore
import Testing

/// The one rule for what waits behind what (``InputOrder``), as the session holds a client's input
/// behind its settings writes and its preparations (`InputHoldTests` has it in the session).
@Suite struct InputOrderTests {
    let a = ClientID(rawValue: 1)
    let b = ClientID(rawValue: 2)

    @Test func whatAClientSendsWaitsBehindItsOwnOutstandingInputOnly() {
        var order = InputOrder<String>()
        let before = order.hold("first", from: a)
        #expect(!before)
        order.outstanding(a)
        let held = [order.hold("second", from: a), order.hold("third", from: a)]
        #expect(held == [true, true])
        // Another client does not wait.
        let other = order.hold("other", from: b)
        #expect(!order.isWaiting(b) && !other)
        let released = order.done(a)
        #expect(released == ["second", "third"])
        let again = order.done(a)
        #expect(!order.isWaiting(a) && again == [])
    }

    @Test func anInputTakenAgainThatIsOutstandingHoldsTheRestAgain() {
        var order = InputOrder<String>()
        order.outstanding(a)
        for item in ["set", "after"] { _ = order.hold(item, from: a) }
        // Taken again in order: the `set` is outstanding in turn, and what follows it waits again.
        var now: [String] = []
        for item in order.done(a) where !order.hold(item, from: a) {
            now.append(item)
            if item == "set" { order.outstanding(a) }
        }
        #expect(now == ["set"])
        let rest = order.done(a)
        #expect(rest == ["after"])
    }
}

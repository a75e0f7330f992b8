@testable import NarratorBridge
@testable import NarratorModel
import Testing
@testable import NarratorDBus

/// An application whose tree is built to hurt: the bridge gives it up, says so once, takes its
/// windows away and heeds neither it nor its events again while it is on the bus; every other
/// application is served as before.
@Suite struct BridgeHostileTests {
    typealias F = BridgeFixtures

    /// The fixture, mirrored, then answering as `instead` says.
    static func turned(_ instead: @escaping @Sendable (ATSPIRequest) -> Result<DBusValue, DBusFailure>?) -> BridgeHarness {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.desktop[":1.9"]?.answersInstead = instead
        return h
    }

    @Test("an application that answers every question with an error is given up once: its tree unregistered, its events no longer read, the dialog beside it served")
    func errorsForEverything() {
        var h = Self.turned { _ in .failure(.error(name: "org.freedesktop.DBus.Error.Failed", message: "no")) }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        // A toolkit still setting up answers errors for a moment: read again, one retry apart,
        // before it is given up.
        #expect(h.sent() == [])
        #expect(h.said() == [])
        h.advance(by: .seconds(5))
        #expect(h.sent() == [])
        h.advance(by: .seconds(5))
        #expect(h.sent() == [.unregister(tree: F.tree)])
        #expect(h.said() == [
            "narrator-atspi: fixture (:1.9) is given up: it answered each of its 5 questions with an error; its windows are taken away and it is not read again while it is on the bus"
        ])
        #expect(!h.bridge.applicationNames.contains(":1.9"))
        #expect(h.bridge.givenUp == [":1.9"])
        _ = h.reads()
        // Its events, and the desktop's rescans, bring no read and no word.
        for _ in 0..<3 {
            h.event("object:children-changed:add", ":1.9", F.path(2))
            h.focus(":1.9", F.path(3))
            h.event("object:children-changed:add", ATSPIBridge.registry, ATSPIApplicationRead.root)
            h.advance(by: .seconds(6))
        }
        #expect(h.reads().allSatisfy { $0.application != ":1.9" })
        #expect(h.said() == [])
        #expect(h.sent() == [])
        // The dialog beside it is followed as ever.
        h.focus(":1.7", F.path(9))
        #expect(h.sent() == [.focus(tree: F.question, element: "9")])
        // Once it leaves the bus it is forgotten altogether.
        h.desktop[":1.9"] = nil
        h.event("object:children-changed:remove", ATSPIBridge.registry, ATSPIApplicationRead.root)
        #expect(h.bridge.givenUp.isEmpty)
    }

    @Test("an application that answers errors while its toolkit sets up (GTK 4 just started) is read again, and mirrored once it answers")
    func errorsForAMomentAreNotHostile() {
        var h = Self.turned { _ in .failure(.error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "Object does not exist")) }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.said() == [])
        // Ready now: the retry reads it whole, and nothing was given up.
        h.desktop[":1.9"]?.answersInstead = { _ in nil }
        h.advance(by: .seconds(5))
        #expect(h.bridge.givenUp.isEmpty)
        #expect(h.said() == [])
        #expect(h.bridge.applicationNames.contains(":1.9"))
        // Errors again later start the count afresh.
        h.desktop[":1.9"]?.answersInstead = { _ in .failure(.error(name: "org.freedesktop.DBus.Error.Failed", message: "no")) }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        h.advance(by: .seconds(5))
        #expect(h.bridge.givenUp.isEmpty)
        h.advance(by: .seconds(5))
        #expect(h.bridge.givenUp == [":1.9"])
    }

    @Test("an object whose children cycle back to its window is given up, said once, and the bridge goes on")
    func aCycleIsGivenUp() {
        // The panel under the window (2) now lists the window (1) among its children.
        var h = Self.turned { request in
            guard case .children(F.path(2)) = request else { return nil }
            return .success(.structure([.array([.structure([.string(":1.9"), .string(F.path(3))]), .structure([.string(":1.9"), .string(F.path(1))])])]))
        }
        h.desktop[":1.9"]?.offersCache = false
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.unregister(tree: F.tree)])
        #expect(h.said().map { $0.contains("fixture (:1.9) is given up: \(F.path(2)) lists \(F.path(1)), itself or one of its ancestors") } == [true])
        h.focus(":1.7", F.path(9))
        #expect(h.sent() == [.focus(tree: F.question, element: "9")])
    }

    @Test("an answer too large to keep that comes after its question's bound gives the application up, once; one gone already is not said")
    func aLateRefusalGivesUp() {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        let reason = "a reply of 55992099 bytes, over the 8388608-byte limit"
        h.feed(.refusedLate(application: ":1.9", reason: reason))
        #expect(h.sent() == [.unregister(tree: F.tree)])
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) is given up: its late answer was refused: \(reason); its windows are taken away and it is not read again while it is on the bus"])
        h.feed(.refusedLate(application: ":1.9", reason: reason))
        #expect(h.said() == [])
        #expect(h.sent() == [])
    }
}

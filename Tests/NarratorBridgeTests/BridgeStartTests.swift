@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// The bridge starting on a desktop: hello, the registry's list of applications, and each
/// application read and registered, whichever toolkit it is.
@Suite struct BridgeStartTests {
    typealias F = BridgeFixtures

    @Test("starting, the bridge says hello, lists the desktop, and registers each window of each application as an ephemeral tree")
    func startRegistersEveryWindow() throws {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.start()
        #expect(h.asked.first?.application == ATSPIBridge.registry)
        #expect(h.asked.first?.question == .desktop)
        // Each application is read once, as a whole: the cache first, the toolkit before the
        // windows (whose walk depends on its dialect).
        let reads = h.reads()
        #expect(reads.map(\.application) == [":1.7", ":1.9"])
        #expect(reads.allSatisfy {
            $0.requests.prefix(5) == [.items, .name(ATSPIApplicationRead.root), .toolkitName, .toolkitVersion, .children(ATSPIApplicationRead.root)]
        })
        #expect(h.sent() == [
            .hello(client: "narrator-atspi"),
            .subscribe,
            .register(ATSPIMirrorTests.question(), application: "zenity"),
            .register(ATSPIMappingTests.window, application: "fixture"),
        ])
        #expect(h.bridge.mirror.trees.count == 2)
        #expect(h.bridge.applicationNames == [":1.7", ":1.9"])
        #expect(h.said() == [])
        #expect(h.calls.isEmpty, "reading calls nothing in the application")
    }

    @Test("a Qt application, whose cache is empty, is walked level by level and mirrored as its GTK twin is")
    func aQtApplicationIsWalked() throws {
        var qt = F.fixture
        qt.name = "qt-fixture"
        qt.offersCache = false
        qt.bus = ":1.12"
        var h = BridgeHarness(qt)
        h.start()
        let read = try #require(h.reads().first)
        // Walked: each object asked what it is, down to the last.
        #expect(read.requests.contains(.role(F.path(1))) && read.requests.contains(.role(F.path(16))))
        #expect(read.requests.contains(.children(F.path(2))))
        #expect(h.sent() == [.hello(client: "narrator-atspi"), .subscribe, .register(ATSPIMappingTests.window, application: "qt-fixture")])
        #expect(h.said() == [])
    }
}

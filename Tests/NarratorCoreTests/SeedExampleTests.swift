@testable import NarratorModel
import Testing

/// The examples from the seed articles, which must come out exactly.
@Suite struct SeedExampleTests {
    @Test func fiveStarRating() throws {
        var workspace = Workspace()
        workspace.register(try loadExample("player.json"))
        let focus = try workspace.focus(tree: "player", element: "rating")
        #expect(focus.utterance.text == "rating, 3, adjustable")
        #expect(try workspace.adjust(.up) == .changed(focus: focus.focus, value: 4, spoken: "4", atBound: false))
        #expect(try workspace.adjust(.up) == .changed(focus: focus.focus, value: 5, spoken: "5", atBound: false))
        #expect(try workspace.adjust(.up) == .changed(focus: focus.focus, value: 5, spoken: "5", atBound: true))
        #expect(try workspace.move(.previous).utterance.text == "Playback position, 1:05, adjustable")
        #expect(try workspace.move(.next).utterance.text == "rating, 5, adjustable")
    }

    @Test func waveformScrubberAsASlider() throws {
        var workspace = Workspace()
        workspace.register(try loadExample("player.json"))
        let focus = try workspace.focus(tree: "player", element: "waveform")
        #expect(focus.utterance.text == "Playback position, 1:05, adjustable")
        #expect(focus.utterance.hint == "Swipe up or down to move through the track")
        #expect(try workspace.adjust(.down) == .changed(focus: focus.focus, value: 64, spoken: "1:04", atBound: false))
        // The representation's children are not exposed: an id inside focuses the waveform.
        #expect(try workspace.focus(tree: "player", element: "bars").focus.element == "waveform")
    }

    @Test func segmentedControlOfSyntheticElements() throws {
        let t = AccessibilityTree(document: try loadExample("segmented.json"))
        #expect(utterances(t) == ["Low, button", "selected, Medium, button", "High, button"])
        #expect(t.screenFrame("medium")?.x == 120)
        #expect(t.hitTest(Point(x: 130, y: 120)).map(t.stopID) == "medium")
        #expect(t.lookup("segmented") == .stop(0))
    }

    @Test func profileHeaderReadingOrder() throws {
        let t = AccessibilityTree(document: try loadExample("profile.json"))
        #expect(utterances(t) == ["Jane Appleseed", "iOS engineer"])
        #expect(t.lookup("avatar") == .hidden)
    }

    @Test func favoritesCombinedButton() throws {
        let t = AccessibilityTree(document: try loadExample("favorites.json"))
        #expect(
            utterances(t) == [
                "Library, heading", "Favorites, 3 items, button", "Inbox, 2 unread, button", "Drafts, button",
                "Updates, 5 unread, button", "Help, link", "Home, tab, 1 of 3", "selected, Library, tab, 2 of 3",
                "Search, tab, 3 of 3",
            ])
        #expect(t.utterance(atStop: 1).hint == "Double-tap to toggle. actions available")
    }
}

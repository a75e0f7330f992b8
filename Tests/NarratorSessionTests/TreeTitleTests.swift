import NarratorModel
import NarratorProtocol
import Testing

/// Entering a tree says its title first; a title that is also the first element's label is said once.
@Suite struct TreeTitleTests {
    static func tree(_ name: String, title: String, language: String, heading: String) -> String {
        """
        {"tree": "\(name)", "title": "\(title)", "language": "\(language)", "root": {"id": "root", "children": [
          {"id": "heading", "label": "\(heading)", "traits": ["header"]},
          {"id": "shelf", "label": "Shelf", "traits": ["button"]}
        ]}}
        """
    }

    @Test func aTitleThatIsTheFirstLabelIsSaidOnce() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, json: Self.tree("library", title: "Library", language: "en", heading: "Library"))
        let focus = h.request(user, .focus(tree: "library", element: nil))
        #expect(
            focus == [
                .send(
                    user,
                    .reply(
                        Reply(
                            id: 2,
                            .success(
                                .focus(
                                    FocusReport(utterance: "Library, heading", hint: nil, focus: Focus(tree: "library", element: "heading"), boundary: false)))))),
                play(1, .focus, "Library, heading", language: "en"),
            ])
    }

    @Test func theRepeatIsFoundIgnoringCaseInEveryLanguage() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, json: Self.tree("settings", title: "Einstellungen", language: "de", heading: "EINSTELLUNGEN"))
        #expect(h.request(user, .focus(tree: "settings", element: nil)).played == ["Einstellungen, Überschrift"])
    }

    @Test func aDifferentTitleIsStillSaidBeforeTheElement() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, json: Self.tree("library", title: "Library", language: "en", heading: "Books"))
        #expect(h.request(user, .focus(tree: "library", element: nil)).played == ["Library, Books, heading"])
        // Within the tree the title is not said again, even on the element that repeats it.
        #expect(h.request(user, .move(.next, tree: nil)).played == ["Shelf, button"])
        #expect(h.request(user, .move(.previous, tree: nil)).played == ["Books, heading"])
    }

    @Test func aRoleWordThatIsTheTitleIsStillSaid() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, json: #"{"tree": "gallery", "title": "Image", "root": {"id": "r", "children": [{"id": "p", "label": "Sunset", "traits": ["image"]}]}}"#)
        // Only a label repeating the title is said once; the role word "image" is not a repeat of it.
        #expect(h.request(app, .focus(tree: "gallery", element: nil)).played == ["Image, Sunset, image"])
    }
}

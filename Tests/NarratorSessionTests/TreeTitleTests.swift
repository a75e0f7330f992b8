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
    @Test("a tree retitled by an update on its root (a window renamed) keeps its name, its focus and its nodes; the new title is what entering it and the tree list say; on another element the update is refused")
    func aTreeIsRetitledOnItsRoot() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, json: Self.tree("browser", title: "Mozilla Firefox", language: "en", heading: "Boats"))
        #expect(h.request(app, .focus(tree: "browser", element: "shelf")).played == ["Mozilla Firefox, Shelf, button"])
        let retitled = h.request(app, .update(tree: "browser", update: .retitle(element: "root", title: "Boats — Mozilla Firefox"), announce: false, notify: nil))
        #expect(retitled.played.isEmpty, "a new title is not news where the focus is")
        guard case .success(.updated)? = retitled.reply(to: app)?.outcome else { Issue.record("\(retitled)"); return }
        guard case .success(.trees(let trees))? = h.request(app, .trees).reply(to: app)?.outcome else { Issue.record("no tree list"); return }
        #expect(trees.map(\.tree) == ["browser"])
        #expect(trees.first?.title == "Boats — Mozilla Firefox")
        // The focus stayed; entering the tree again says the new title.
        #expect(h.request(app, .move(.previous, tree: nil)).played == ["Boats, heading"])
        let other = h.client()
        try h.register(other, json: Self.tree("notes", title: "Notes", language: "en", heading: "Today"))
        h.request(other, .focus(tree: "notes", element: nil))
        #expect(h.request(app, .focus(tree: "browser", element: "shelf")).played == ["Boats — Mozilla Firefox, Shelf, button"])
        // The title is the tree's: set on another element, refused with what to do.
        let refused = h.request(app, .update(tree: "browser", update: .retitle(element: "shelf", title: "Shelf"), announce: false, notify: nil))
        #expect(refused.error(to: app)?.message.contains("the title is the tree's: name its root element") == true, "\(refused)")
        // null clears it: entering says the element alone.
        h.request(app, .update(tree: "browser", update: .retitle(element: "root", title: nil), announce: false, notify: nil))
        h.request(other, .focus(tree: "notes", element: nil))
        #expect(h.request(app, .focus(tree: "browser", element: "shelf")).played == ["Shelf, button"])
    }
}

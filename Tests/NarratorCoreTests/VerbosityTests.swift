@testable import NarratorModel
import NarratorProtocol
import Testing

/// Verbosity as an input of what a move says: brief leaves out the hint (and actions
/// available) and says a table as Orca's brief level does, "Race schedule, table", without its
/// size; verbose says all of it.
@Suite struct VerbosityTests {
    static let page = document(#"""
        {"id": "save", "label": "Save", "hint": "Saves the story", "traits": ["button"], "actions": ["Share"]},
        {"id": "schedule", "label": "Race schedule", "table": [1, 2], "children": [
          {"id": "race", "label": "Race", "cell": [0, 0], "cellHeader": "column"},
          {"id": "start", "label": "Start", "cell": [0, 1], "cellHeader": "column"}]}
        """#)

    @Test("brief: no hint on a move, a table without its size; verbose: both")
    func briefLeavesOutTheHintAndTheTablesSize() throws {
        var w = Workspace()
        w.register(try decode(Self.page))
        let verbose = try w.focus(tree: "t", element: "save")
        #expect(verbose.utterance.hint == "Saves the story, actions available")
        guard case .moved(let table) = try w.rotor("tables", .next) else { Issue.record("no move"); return }
        #expect(table.spokenText == "Race schedule, table with 1 rows 2 columns, Race, column header")

        w.verbosity = .brief
        let brief = try w.focus(tree: "t", element: "save")
        #expect(brief.spokenText == "Save, button" && brief.utterance.hint == nil)
        _ = try w.move(.first)
        guard case .moved(let briefTable) = try w.rotor("tables", .next) else { Issue.record("no move"); return }
        #expect(briefTable.spokenText == "Race schedule, table, Race, column header")
        // A boundary's utterance, too, has no hint.
        _ = try w.move(.first)
        let edge = try w.move(.previous)
        #expect(edge.boundary && edge.utterance.text == "Save, button" && edge.utterance.hint == nil)
    }
}

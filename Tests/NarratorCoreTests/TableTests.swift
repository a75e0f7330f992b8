@testable import NarratorModel
import NarratorProtocol
import Testing

/// Tables as a web page has them: the tables rotor reaches a table at its first cell, said with
/// the table's name and size; a cell move goes by row and column, says the header of the column
/// or row it entered, and says the edge where it stays.
@Suite struct TableTests {
    static let page = document(#"""
        {"id": "intro", "label": "Boats race on Saturday.", "traits": ["staticText"]},
        {"id": "schedule", "label": "Race schedule", "table": [3, 3], "children": [
          {"id": "caption", "label": "Race schedule", "traits": ["staticText"]},
          {"id": "r0", "children": [
            {"id": "race", "label": "Race", "cell": [0, 0], "cellHeader": "column"},
            {"id": "start", "label": "Start", "cell": [0, 1], "cellHeader": "column"},
            {"id": "boats", "label": "Boats", "cell": [0, 2], "cellHeader": "column"}]},
          {"id": "r1", "children": [
            {"id": "dinghies", "label": "Dinghies", "cell": [1, 0], "cellHeader": "row"},
            {"id": "d-start", "label": "9:00", "cell": [1, 1]},
            {"id": "d-boats", "label": "12", "cell": [1, 2]}]},
          {"id": "r2", "children": [
            {"id": "keelboats", "label": "Keelboats", "cell": [2, 0], "cellHeader": "row"},
            {"id": "k-start", "label": "10:30", "cell": [2, 1]}]}
        ]},
        {"id": "after", "label": "Kestrel won.", "traits": ["staticText"]}
        """#)

    func workspace() throws -> Workspace {
        var w = Workspace()
        w.register(try decode(Self.page))
        _ = try w.focus(tree: "t", element: "intro")
        return w
    }

    @Test("the tables rotor reaches the table at its first cell, said with the table's name and size, and wraps")
    func tablesRotor() throws {
        var w = try workspace()
        #expect(try w.rotors().first { $0.name == "tables" }?.items == ["race"])
        guard case .moved(let table) = try w.rotor("tables", .next) else { Issue.record("no move"); return }
        #expect(table.focus.element == "race")
        #expect(table.spokenText == "Race schedule, table with 3 rows 3 columns, Race, column header")
        guard case .moved(let again) = try w.rotor("tables", .next) else { Issue.record("no move"); return }
        #expect(again.spokenText == "wrapped to top, Race schedule, table with 3 rows 3 columns, Race, column header")
    }

    @Test("a cell move says the header of the column or row it entered and the cell's place, passes over a missing cell, and says the edge where it stays")
    func cellMoves() throws {
        var w = try workspace()
        #expect(throws: NarratorError.notInTable(tree: "t", element: "intro")) { try w.moveInTable(.right) }
        _ = try w.focus(tree: "t", element: "race")
        #expect(try w.moveInTable(.right).spokenText == "Start, column header, row 1, column 2")
        #expect(try w.moveInTable(.down).spokenText == "Dinghies, 9:00, row 2, column 2")
        #expect(try w.moveInTable(.left).spokenText == "Race, Dinghies, row header, row 2, column 1")
        let edge = try w.moveInTable(.left)
        #expect(edge.boundary && edge.focus.element == "dinghies" && edge.spokenText == "Beginning of row")
        #expect(try w.moveInTable(.down).spokenText == "Keelboats, row header, row 3, column 1")
        #expect(try w.moveInTable(.down).spokenText == "Bottom of column")
        #expect(try w.moveInTable(.right).spokenText == "Start, 10:30, row 3, column 2")
        // Row 2 has no third cell: the row ends here.
        #expect(try w.moveInTable(.right).spokenText == "End of row")
        #expect(try w.moveInTable(.up).spokenText == "Dinghies, 9:00, row 2, column 2")
        #expect(try w.moveInTable(.up).spokenText == "Start, column header, row 1, column 2")
        #expect(try w.moveInTable(.up).spokenText == "Top of column")
        #expect(w.focus?.element == "start")
    }

    @Test("a table made or unmade by an update is in the tables rotor, or not, at once")
    func tablesFollowUpdates() throws {
        var w = try workspace()
        _ = try w.update(tree: "t", .setProperties(element: "schedule", properties: ["table": .null]))
        #expect(try w.rotors().first { $0.name == "tables" } == nil)
        _ = try w.update(tree: "t", .setProperties(element: "schedule", properties: ["table": [3, 3]]))
        #expect(try w.rotors().first { $0.name == "tables" }?.items == ["race"])
    }

    @Test("table sizes and cell places are whole numbers, not negative; a header is a column's or a row's; they encode back")
    func decodingAndEncoding() throws {
        #expect(problems(document(#"{"id": "t", "table": [-1, 2]}"#)).contains { $0.contains("table") && $0.contains("not negative") })
        #expect(problems(document(#"{"id": "c", "label": "C", "cell": [0, 1.5]}"#)).contains { $0.contains("cell") })
        #expect(problems(document(#"{"id": "c", "label": "C", "cell": [0, 0], "cellHeader": "colum"}"#)).contains { $0.contains("column") })
        #expect(problems(document(#"{"id": "c", "label": "C", "cell": [0, 0]}"#)) == [#"root.children[0]: cell [0, 0] is in no table: give a node around it "table": [rows, columns]"#])
        #expect(problems(document(#"{"id": "t", "table": [1, 2], "children": [{"id": "c", "label": "C", "cell": [1, 0]}]}"#)).contains { $0.contains("root.children[0].children[0]") && $0.contains("outside its table's 1 rows and 2 columns") })
        let decoded = try decode(Self.page)
        let again = try TreeDocumentDecoder().decode(TreeDocumentEncoder.json(decoded))
        #expect(again == decoded)
    }

    @Test("the cell request carries its direction both ways")
    func cellRequest() throws {
        #expect(try RequestDecoder().decode(Array(#"{"cmd": "cell", "direction": "left"}"#.utf8)).get().command == .cell(.left))
        #expect(RequestCommand.cell(.down).name == .cell)
    }
}

import Foundation
import Testing

/// `narratorctl show` through the real binary: what a developer sees in the shell.
@Suite struct ShowCommandTests {
    @Test func listsTheSeedExamplesUtterances() throws {
        let player = try Binaries.run("narratorctl", ["show", "examples/player.json"])
        #expect(player.status == 0)
        #expect(player.stdout.split(separator: "\n").contains("rating, 3, adjustable"))
        #expect(player.stdout.split(separator: "\n").contains("Playback position, 1:05, adjustable"))
        let segmented = try Binaries.run("narratorctl", ["show", "examples/segmented.json"])
        #expect(segmented.stdout == "Low, button\nselected, Medium, button\nHigh, button\n")
        let profile = try Binaries.run("narratorctl", ["show", "examples/profile.json"])
        #expect(profile.stdout == "Jane Appleseed\niOS engineer\n")
    }

    @Test func jsonGivesIdsHintsAndScreenFrames() throws {
        let result = try Binaries.run("narratorctl", ["show", "--json", "examples/segmented.json"])
        #expect(result.status == 0)
        let stops = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        #expect(stops.map { $0["id"] as! String } == ["low", "medium", "high"])
        #expect(stops[1]["utterance"] as? String == "selected, Medium, button")
        #expect(stops[1]["hint"] is NSNull)
        #expect((stops[1]["frame"] as! [Double]) == [120, 100, 100, 44])
    }

    @Test func readsStandardInput() throws {
        let result = try Binaries.run(
            "narratorctl", ["show", "-"], stdin: #"{"tree": "t", "root": {"id": "r", "label": "Hello", "traits": ["header"]}}"#)
        #expect(result.status == 0)
        #expect(result.stdout == "Hello, heading\n")
    }

    @Test func invalidDocumentExitsOneWithEveryProblem() throws {
        let result = try Binaries.run(
            "narratorctl", ["show", "-"],
            stdin: #"{"tree": "t", "root": {"id": "r", "children": [{"id": "a", "lable": "x"}, {"id": "b"}, {"id": "c", "frame": [0, 0, 10]}]}}"#)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(#"root.children[0].lable: unknown key; did you mean "label"?"#))
        #expect(result.stderr.contains("root.children[2].frame: expected 4 numbers, got 3"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try Binaries.run("narratorctl", ["show"]).status == 2)
        #expect(try Binaries.run("narratorctl", ["show", "a", "b"]).status == 2)
        let typo = try Binaries.run("narratorctl", ["shwo", "x"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains(#"did you mean "show"?"#))
        #expect(try Binaries.run("narratorctl", ["show", "--jsn", "x"]).stderr.contains("did you mean --json?"))
    }

    @Test func missingFileIsAClearError() throws {
        let result = try Binaries.run("narratorctl", ["show", "/nonexistent/tree.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot read /nonexistent/tree.json: no such file"))
    }

    @Test func helpIsAvailableEverywhere() throws {
        let overview = try Binaries.run("narratorctl", ["--help"])
        #expect(overview.status == 0 && overview.stdout.contains("show"))
        let show = try Binaries.run("narratorctl", ["help", "show"])
        #expect(show.stdout.contains("Usage: narratorctl show FILE"))
        #expect(try Binaries.run("narratorctl", ["show", "--help"]).stdout == show.stdout)
    }
}

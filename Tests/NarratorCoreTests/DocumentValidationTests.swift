@testable import NarratorModel
import Testing

@Suite struct DocumentValidationTests {
    @Test func validDocumentDecodes() throws {
        let doc = try decode(
            document(
                #"{"id": "a", "label": "A", "traits": ["button", "selected"], "frame": [1, 2, 3, 4], "actions": ["x"]}"#,
                extra: #""title": "T", "language": "en","#))
        #expect(doc.name == "t")
        #expect(doc.title == "T")
        let a = doc.root.children[0]
        #expect(a.traits == Traits([.button, .selected]))
        #expect(a.frame == Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(a.actions == ["x"])
    }

    /// Node keys are matched by a hand-written switch (for speed), so it must know every field,
    /// and a near miss of the same length must stay an unknown key.
    @Test func everyNodeKeyIsRecognisedAndNearMissesAreNot() {
        for field in NodeField.allCases {
            #expect(NodeField(key: field.rawValue) == field)
        }
        for key in ["ID", "lable", "Frame", "hiden", "children ", "", "isElements", "rotor"] {
            #expect(NodeField(key: key) == nil)
        }
        let found = problems(document(#"{"id": "a", "Label": "A", "modal": true, "hidden": false}"#))
        #expect(found == [#"root.children[0].Label: unknown key; did you mean "label"?"#])
    }

    @Test func frameWithThreeNumbersNamesThePath() {
        let found = problems(document(#"{"id": "a"}, {"id": "b"}, {"id": "c", "frame": [0, 0, 10]}"#))
        #expect(found == ["root.children[2].frame: expected 4 numbers, got 3"])
    }

    @Test func aSelectionIsTwoWholeNumbersNotNegative() {
        #expect(problems(document(#"{"id": "a", "value": "Ada", "selectedTextRange": [0, 3]}"#)) == [])
        #expect(problems(document(#"{"id": "a", "value": "Ada", "selectedTextRange": [0]}"#)) == ["root.children[0].selectedTextRange: expected 2 numbers, got 1"])
        #expect(problems(document(#"{"id": "a", "value": "Ada", "selectedTextRange": [-1, 2]}"#)) == [
            "root.children[0].selectedTextRange: expected a location and a length in characters (whole numbers, not negative), got [-1, 2]",
        ])
        #expect(problems(document(#"{"id": "a", "value": "Ada", "selectedTextRange": [0.5, 2]}"#)).count == 1)
        #expect(problems(document(#"{"id": "a", "value": "Ada", "selectedTextRange": "all"}"#)) == [
            "root.children[0].selectedTextRange: expected [location, length]: 2 numbers, got a string",
        ])
    }

    @Test func aPositionIsAnIndexFromOneWithinItsCount() {
        #expect(problems(document(#"{"id": "a", "positionInSet": [1, 1]}"#)) == [])
        for bad in ["[0, 3]", "[4, 3]", "[1.5, 3]"] {
            #expect(problems(document(#"{"id": "a", "positionInSet": \#(bad)}"#)) == [
                "root.children[0].positionInSet: expected an index from 1 and a count at least as large (whole numbers), got \(bad)",
            ])
        }
        #expect(problems(document(#"{"id": "a", "positionInSet": 2}"#)) == ["root.children[0].positionInSet: expected [index, count]: 2 numbers, got a number"])
    }

    @Test func unknownKeySuggestsNearest() {
        let found = problems(document(#"{"id": "a", "lable": "A"}"#))
        #expect(found == [#"root.children[0].lable: unknown key; did you mean "label"?"#])
        #expect(problems(#"{"tree": "t", "rot": {"id": "r"}}"#).contains(#"rot: unknown key; did you mean "root"?"#))
    }

    @Test func duplicateIdsNameBothPaths() {
        let found = problems(document(#"{"id": "play"}, {"id": "x", "children": [{"id": "play"}]}"#))
        #expect(found == [#"root.children[1].children[0].id: duplicate id "play" (also at root.children[0].id)"#])
    }

    @Test func everyProblemIsListed() {
        let found = problems(
            document(
                #"{"id": "a", "traits": ["buton"], "hidden": "yes"}, {"label": "no id", "frame": [0, 0, -1, 5]}, 7"#))
        #expect(
            found == [
                #"root.children[0].traits[0]: unknown trait "buton"; did you mean "button"?"#,
                "root.children[0].hidden: expected true or false, got a string",
                "root.children[1].frame: width and height must not be negative, got -1 x 5",
                #"root.children[1]: missing "id""#,
                #"root.children[2]: expected a node (an object with an "id"), got a number"#,
            ])
    }

    @Test func missingTreeAndRoot() {
        #expect(problems("{}") == [#"missing "tree" (the tree's name)"#, #"missing "root" (the root node)"#])
        #expect(problems("[]") == [#"expected a tree document (an object with "tree" and "root"), got an array"#])
    }

    @Test func syntaxErrorsAreReportedAsSuch() {
        #expect(problems(#"{"tree": "t",}"#) == [#"not valid JSON: line 1, column 14: expected a string key, got '}'"#])
    }

    @Test func duplicateKeysAreRejected() {
        #expect(problems(document(#"{"id": "a", "label": "x", "label": "y"}"#)) == ["root.children[0].label: key given twice"])
    }

    @Test func adjustableIsChecked() {
        #expect(problems(document(#"{"id": "a", "adjustable": {"value": 9, "min": 1, "max": 5}}"#)) == [
            "root.children[0].adjustable.value: 9 is outside 1...5"
        ])
        #expect(problems(document(#"{"id": "a", "adjustable": {"value": 1, "min": 5, "max": 1}}"#)) == [
            "root.children[0].adjustable: min (5) is greater than max (1)"
        ])
        #expect(problems(document(#"{"id": "a", "adjustable": {"value": 1, "step": 0}}"#)) == [
            "root.children[0].adjustable.step: step must be greater than 0, got 0"
        ])
        #expect(problems(document(#"{"id": "a", "adjustable": {"value": 1, "format": "tme"}}"#)) == [
            #"root.children[0].adjustable.format: unknown format "tme"; expected number, percent, time, or a template containing {value}; did you mean "time"?"#
        ])
        #expect(problems(document(#"{"id": "a", "adjustable": {"min": 1}}"#)) == [#"root.children[0].adjustable: missing "value""#])
        #expect(problems(document(#"{"id": "a", "adjustable": {"value": 1, "format": "percent"}}"#)) == [
            #"root.children[0].adjustable.format: percent needs both "min" and "max""#
        ])
    }

    @Test func representationIsChecked() {
        #expect(problems(document(#"{"id": "a", "representation": {"control": "slidr"}}"#)) == [
            #"root.children[0].representation.control: unknown control "slidr"; did you mean "slider"? expected one of slider, stepper, button, toggle, link"#
        ])
        #expect(problems(document(#"{"id": "a", "representation": {"control": "button", "isOn": true}}"#)) == [
            #"root.children[0].representation.isOn: only a toggle has "isOn"; this is a button"#
        ])
    }

    @Test func idsMustBeCleanNames() {
        #expect(problems(document(#"{"id": ""}"#)) == ["root.children[0].id: id must not be empty"])
        #expect(problems(document(#"{"id": "a\u0007b"}"#)) == ["root.children[0].id: id contains the control character U+7"])
    }

    @Test func rotorsAndActionsAreChecked() {
        #expect(problems(document(#"{"id": "a", "actions": ["x", "x"]}"#)) == [#"root.children[0].actions[1]: action "x" listed twice"#])
        #expect(problems(document(#"{"id": "a", "rotors": [{"name": "R", "targets": "b"}]}"#)) == [
            "root.children[0].rotors[0].targets: expected an array of element ids, got a string"
        ])
        // A target listed twice is the only loop a rotor could express: refused, with both places.
        #expect(problems(document(#"{"id": "a", "rotors": [{"name": "R", "targets": ["a", "b", "a"]}]}, {"id": "b"}"#)) == [
            #"root.children[0].rotors[0].targets[2]: target "a" listed twice (also at index 0)"#
        ])
    }

    /// The bit tables are written out for speed; a repeated bit would make a key look given twice
    /// or two traits one.
    @Test func everyFieldAndTraitHasItsOwnBit() {
        #expect(NodeField.allCases.map(\.bitIndex) == (0..<UInt32(NodeField.allCases.count)).map { $0 })
        #expect(Trait.allCases.map(\.bit) == (0..<UInt32(Trait.allCases.count)).map { 1 << $0 })
        #expect(NodeField.allCases.allSatisfy { NodeField(key: $0.rawValue) == $0 })
    }

    @Test func limitsAreEnforced() {
        let decoder = TreeDocumentDecoder(limits: DocumentLimits(maxDepth: 3, maxNodes: 100, maxStringLength: 8))
        let deep = #"{"tree": "t", "root": {"id": "a", "children": [{"id": "b", "children": [{"id": "c", "children": [{"id": "d"}]}]}]}}"#
        #expect { try decoder.decode(text: deep) } throws: {
            ($0 as? DocumentError)?.problems.map(\.description) == ["root.children[0].children[0].children: nodes nested deeper than 3 levels"]
        }
        #expect { try decoder.decode(text: #"{"tree": "t", "root": {"id": "a", "label": "far too long"}}"#) } throws: {
            ($0 as? DocumentError)?.problems.map(\.description) == ["root.label: string longer than 8 characters"]
        }
    }

    @Test func unsupportedVersion() {
        #expect(problems(#"{"version": 2, "tree": "t", "root": {"id": "r"}}"#) == [
            "version: unsupported format version 2; this build reads version 1"
        ])
    }

    @Test func encoderRoundTrips() throws {
        for name in ["player.json", "segmented.json", "profile.json", "favorites.json"] {
            let doc = try loadExample(name)
            let again = try TreeDocumentDecoder().decode(TreeDocumentEncoder.json(doc))
            #expect(again == doc, "\(name)")
        }
    }
}

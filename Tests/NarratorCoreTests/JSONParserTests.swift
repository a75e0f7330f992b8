@testable import NarratorModel
import Testing

@Suite struct JSONParserTests {
    let parser = JSONParser()

    @Test func parsesEveryKindOfValue() throws {
        let value = try parser.parse(#"{"a": [1, -2.5e2, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}}"#)
        #expect(value["a"] == [1, -250, true, false, nil, "x\né😀"])
        #expect(value["b"] == .object(JSONObject()))
    }

    /// Short integers take a fast path; every number must read as the text's nearest Double
    /// either way, sign of zero included.
    @Test func integersReadExactlyOnEitherPath() throws {
        let texts = ["0", "-0", "7", "-42", "999999999999999", "-999999999999999", "1234567890123456", "12345678901234567890", "0.5", "1e3", "-0.0"]
        for text in texts {
            let number = try #require(try parser.parse(text).numberValue)
            let expected = try #require(Double(text))
            #expect(number == expected && number.sign == expected.sign, "\(text)")
        }
        #expect(try parser.parse("[10, 20]") == [10, 20])
    }

    @Test func keepsDuplicateKeysInOrder() throws {
        let value = try parser.parse(#"{"k": 1, "k": 2}"#)
        #expect(value.objectValue?.keys == ["k", "k"])
        #expect(value["k"] == 2)
    }

    @Test func reportsLineAndColumn() {
        #expect(throws: JSONSyntaxError.self) { try parser.parse("{\n  \"a\": 1,\n  \"b\" 2\n}") }
        do {
            _ = try parser.parse("{\n  \"a\": 1,\n  \"b\" 2\n}")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 7)
            #expect(error.description == "line 3, column 7: expected ':' after key \"b\", got '2'")
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect { try parser.parse(bytes) } throws: { ($0 as? JSONSyntaxError)?.reason == "invalid UTF-8 in a string" }
    }

    @Test func rejectsMalformedInput() {
        for text in ["", "{", "[1,]", "{\"a\":}", "01", "1.", "NaN", "\"\u{01}\"", "[1] 2", "\"\\x\"", "\"\\ud800\"", "1e999"] {
            #expect(throws: JSONSyntaxError.self, "\(text)") { try parser.parse(text) }
        }
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect { try JSONParser(maxDepth: 512).parse(deep) } throws: {
            ($0 as? JSONSyntaxError)?.reason == "nesting deeper than 512 levels"
        }
        #expect(throws: Never.self) { try JSONParser(maxDepth: 700).parse(deep) }
    }

    @Test func writerRoundTrips() throws {
        let text = #"{"id":7,"ok":true,"text":"a \"quoted\"\nline\u0001","n":2.5,"list":[],"o":{}}"#
        let value = try parser.parse(text)
        #expect(value.compactText == text)
        #expect(try parser.parse(value.prettyText) == value)
    }
}

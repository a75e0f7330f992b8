import Foundation
import Testing
@testable import NarratorCLI
import NarratorCommandLine

/// What a new user trips over (issue 15) without a daemon: the built narratorctl, offline.
@Suite struct NewUserOfflineTests {
    final class Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-offline-\(UUID().uuidString.prefix(8))").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    // Item 18: audit's table aligns by display width too.
    @Test func auditTableAlignsWideElementIds() throws {
        let document = #"{"tree": "t", "root": {"id": "r", "children": [{"id": "按钮", "traits": ["button"]}, {"id": "b", "traits": ["button"]}]}}"#
        let audit = try Binaries.run("narratorctl", ["audit", "-"], stdin: document)
        let rows = audit.stdout.split(separator: "\n").filter { $0.contains("unlabelled-control") }
        #expect(rows.count == 2, "\(audit.stdout)")
        // The PATH column starts at the same terminal column on both rows.
        let columns = rows.map { row in
            let prefix = row[..<row.range(of: "root.children")!.lowerBound]
            return prefix.unicodeScalars.reduce(0) { $0 + ((0x4E00...0x9FFF).contains($1.value) ? 2 : 1) }
        }
        #expect(columns[0] == columns[1], "\(audit.stdout)")
    }
}

import Testing
@testable import NarratorCore

@Test func treeFormatIsOne() { #expect(NarratorVersion.treeFormat == 1) }

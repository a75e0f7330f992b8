import Testing
@testable import NarratorSystem

import Testing
@testable import NarratorSpeech

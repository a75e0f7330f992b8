import NarratorCore

typealias Suggestion = NarratorCore.Suggestion

import NarratorBase

typealias Suggestion = NarratorBase.Suggestion

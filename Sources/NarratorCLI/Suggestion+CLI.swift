import NarratorCore
import NarratorBase

typealias Suggestion = NarratorBase.Suggestion

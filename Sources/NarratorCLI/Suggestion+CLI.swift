import NarratorBase
import NarratorCore

typealias Suggestion = NarratorBase.Suggestion

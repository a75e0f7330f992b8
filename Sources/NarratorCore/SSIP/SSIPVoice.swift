/// One line of `LIST SYNTHESIS_VOICES`: `name\tlanguage\tvariant` (variant `none` when there is none).
public struct SSIPVoice: Sendable, Hashable {
    public var name: String
    public var language: String
    public var variant: String

    public init(name: String, language: String, variant: String = "none") {
        self.name = name
        self.language = language
        self.variant = variant
    }

    /// The data line of a 249 reply.
    public var ssipLine: String { "\(name)\t\(language)\t\(variant)" }
}

/// A landmark of a web page (ARIA's landmark roles): what Orca's M key jumps between, said as
/// the cursor enters and leaves it ("navigation", "leaving navigation").
public enum Landmark: String, CaseIterable, Sendable {
    case banner, navigation, main, complementary, contentinfo, region, form, search

    /// The landmark in Orca's words: its role name ("main content"), and what leaving it says.
    var phrase: Phrase {
        switch self {
        case .banner: .landmarkBanner
        case .navigation: .landmarkNavigation
        case .main: .landmarkMain
        case .complementary: .landmarkComplementary
        case .contentinfo: .landmarkContentinfo
        case .region: .landmarkRegion
        case .form: .landmarkForm
        case .search: .landmarkSearch
        }
    }
}

/// How a live region tells of its changes (ARIA's `aria-live`): what Orca's D key jumps between.
public enum LiveSetting: String, CaseIterable, Sendable {
    case polite, assertive
}

/// A block of text a web page marks as one: a paragraph (Orca's P) or a quotation (Orca's Q).
public enum TextBlock: String, CaseIterable, Sendable {
    case paragraph, blockQuote
}

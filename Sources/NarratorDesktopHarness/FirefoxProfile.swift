import Foundation

/// Firefox ESR as the tests and benchmarks start it on a headless desktop: a fresh profile that
/// opens the page it is given and nothing else (no welcome page, no default-browser question, no
/// telemetry) and never reaches for the network, with its accessibility left on. Firefox turns
/// AT-SPI on only when org.a11y.Status says a screen reader runs (narrator-atspi says so as it
/// starts; ``HeadlessDesktop`` keeps GSettings in memory so nothing overrides it).
public enum FirefoxProfile {
    public static let firefox = "/usr/bin/firefox-esr"

    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: firefox) }

    /// The preferences, as user.js holds them (values in JavaScript syntax).
    public static let preferences: [(String, String)] = [
        ("browser.aboutwelcome.enabled", "false"), ("browser.shell.checkDefaultBrowser", "false"),
        ("browser.startup.homepage_override.mstone", "\"ignore\""), ("startup.homepage_welcome_url", "\"\""),
        ("browser.startup.firstrunSkipsHomepage", "true"), ("datareporting.policy.dataSubmissionEnabled", "false"),
        ("datareporting.healthreport.uploadEnabled", "false"), ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
        ("accessibility.force_disabled", "0"), ("app.update.enabled", "false"), ("browser.tabs.warnOnClose", "false"),
        ("browser.newtabpage.enabled", "false"), ("extensions.pocket.enabled", "false"),
        ("browser.sessionstore.resume_from_crash", "false"), ("network.captive-portal-service.enabled", "false"),
        ("network.connectivity-service.enabled", "false"), ("browser.safebrowsing.update.enabled", "false"),
        ("app.normandy.enabled", "false"),
    ]

    /// Writes a new profile at `directory` and returns the arguments that start Firefox on `page`
    /// (a file path) with it.
    public static func arguments(profile directory: String, page: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined().write(toFile: directory + "/user.js", atomically: true, encoding: .utf8)
        return ["--no-remote", "--profile", directory, URL(fileURLWithPath: page).absoluteString]
    }
}

/// Where the user's keymap lives: `$XDG_CONFIG_HOME/narrator/keymap`, else
/// `~/.config/narrator/keymap`, as the daemon's own settings are found.
public enum KeymapFile {
    /// More than any keymap needs; a larger file is read only this far.
    public static let largest = 256 << 10

    public static func path(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/narrator/keymap" }
        return (environment["HOME"] ?? "") + "/.config/narrator/keymap"
    }
}

/// The wall clock's reading where the user is, as the shell reads it (`localtime_r`) with each
/// key: what the time command says.
public struct LocalTime: Equatable, Sendable {
    public var year: Int
    /// 1 to 12.
    public var month: Int
    public var day: Int
    /// 0 Sunday to 6 Saturday.
    public var weekday: Int
    public var hour: Int
    public var minute: Int

    public init(year: Int, month: Int, day: Int, weekday: Int, hour: Int, minute: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
    }

    /// "14:09".
    public var spokenTime: String {
        "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// "Monday, December 7, 2026".
    public var spokenDate: String {
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let weekdayName = weekdays.indices.contains(weekday) ? weekdays[weekday] + ", " : ""
        let monthName = months.indices.contains(month - 1) ? months[month - 1] : "month \(month)"
        return "\(weekdayName)\(monthName) \(day), \(year)"
    }
}

/// What reading the keymap file gave.
public enum KeymapRead: Equatable, Sendable {
    /// No file: the defaults.
    case absent
    case text(String)
    /// The file is there and could not be read (its error, as the shell got it).
    case unreadable(String)
}

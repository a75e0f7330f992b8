
/// Runs an ``AnnouncementCommand``.
enum AnnouncementTools {
    static func run(_ command: AnnouncementCommand, json: Bool, environment: [String: String], console: Console) -> ExitStatus {
        switch command {
        case .replay(let request): ReplayCommand.run(request, json: json, environment: environment, console: console)
        case .experiment(let request): ExperimentCommand.run(request, json: json, environment: environment, console: console)
        case .log(let request): LogCommand.log(request, environment: environment, console: console)
        case .stats(let request): LogCommand.stats(request, json: json, environment: environment, console: console)
        }
    }
}

import Glibc
import NarratorBridge
import NarratorCommandLine
import NarratorModel
import NarratorSystem

/// `narrator-atspi` as a function: arguments in, output and an exit status out.
public enum BridgeMain {
    public static func run(
        arguments: [String], environment: [String: String], output: @escaping (String) -> Void, errors: @escaping (String) -> Void
    ) -> Int32 {
        let command: BridgeCommand
        do {
            command = try BridgeCommand.parse(arguments)
        } catch {
            errors("narrator-atspi: \(error.message)")
            return 2
        }
        switch command {
        case .help:
            output(BridgeCommand.helpText)
            return 0
        case .run(let flag, let keys):
            let socket = SocketPath.resolve(flag: flag, environment: environment, uid: getuid())
            let link: DaemonLink
            do {
                link = try DaemonLink(socket: socket.path)
            } catch {
                errors("narrator-atspi: cannot reach narratord at \(socket.path): \(error)")
                return 3
            }
            // The bridge's own connection first: its error says which step failed.
            let bus: ATSPIBus
            do {
                bus = try ATSPIBus(environment: environment)
            } catch {
                errors("narrator-atspi: \(error)")
                return 3
            }
            guard ATSPIReader.connect() else {
                errors("narrator-atspi: libatspi could not connect to the accessibility bus at \(bus.address), which answers the bridge's own connection (see libatspi's message above)")
                return 3
            }
            // A screen reader runs from now on: Firefox and Chromium turn their accessibility on.
            if let problem = ATSPIBus.announceScreenReader() { errors("narrator-atspi: \(problem); applications that wait to be asked may stay silent") }
            let shell = BridgeShell(daemon: link, bus: bus, socket: socket.path, keys: keys, environment: environment, log: errors)
            shell.run()
            return 0
        case .dump(let application, let walk):
            let applications: [(name: String, windows: [AccessibleSnapshot])]
            do {
                let bus = try ATSPIBus(environment: environment)
                if walk {
                    guard ATSPIReader.connect() else {
                        errors("narrator-atspi: libatspi could not connect to the accessibility bus at \(bus.address), which answers the bridge's own connection (see libatspi's message above)")
                        return 3
                    }
                    applications = ATSPIReader().applications(named: application)
                } else {
                    applications = try DesktopRead.all(bus: bus, log: errors)
                }
            } catch {
                errors("narrator-atspi: \(error)")
                return 3
            }
            var taken: Set<String> = []
            var printed = 0
            for app in applications where application == nil || app.name == application {
                for window in app.windows {
                    let (document, oddities) = ATSPIMapping.mapped(window: window, application: app.name, taken: taken)
                    taken.insert(document.name)
                    output(TreeDocumentEncoder.json(document).compactText)
                    // What the toolkit reported that no document may hold, and what was made of it.
                    for oddity in oddities { errors("narrator-atspi: \(document.name): \(oddity)") }
                    printed += 1
                }
            }
            guard printed > 0 else {
                let names = applications.map(\.name).filter { !$0.isEmpty }
                let present = names.isEmpty ? "no application has a window there" : "the applications there: " + names.joined(separator: ", ")
                errors("narrator-atspi: no window" + (application.map { " of an application named '\($0)'" } ?? "") + " is on the accessibility bus (\(present))")
                return 1
            }
            return 0
        }
    }
}

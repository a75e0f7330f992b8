import Foundation
import NarratorCommandLine
import NarratorCore
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
        case .run(let flag):
            let socket = SocketPath.resolve(flag: flag, environment: environment, uid: getuid())
            let link: DaemonLink
            do {
                link = try DaemonLink(socket: socket.path)
            } catch {
                errors("narrator-atspi: cannot reach narratord at \(socket.path): \(error)")
                return 3
            }
            guard ATSPIReader.connect() else {
                errors("narrator-atspi: cannot reach the accessibility bus (is DBUS_SESSION_BUS_ADDRESS or DISPLAY set, and at-spi-bus-launcher running?)")
                return 3
            }
            let bus: ATSPIBus
            do {
                bus = try ATSPIBus(environment: environment)
            } catch {
                errors("narrator-atspi: \(error)")
                return 3
            }
            let shell = BridgeShell(daemon: link, bus: bus, socket: socket.path, environment: environment, log: errors)
            shell.run()
            return 0
        case .dump(let application, let walk):
            guard ATSPIReader.connect() else {
                errors("narrator-atspi: cannot reach the accessibility bus (is DBUS_SESSION_BUS_ADDRESS or DISPLAY set, and at-spi-bus-launcher running?)")
                return 3
            }
            let applications: [(name: String, windows: [AccessibleSnapshot])]
            if walk {
                applications = ATSPIReader().applications()
            } else {
                do {
                    applications = try DesktopRead.all(bus: ATSPIBus(environment: environment), log: errors)
                } catch {
                    errors("narrator-atspi: \(error)")
                    return 3
                }
            }
            var taken: Set<String> = []
            var printed = 0
            for app in applications where application == nil || app.name == application {
                for window in app.windows {
                    let document = ATSPIMapping.document(window: window, application: app.name, taken: taken)
                    taken.insert(document.name)
                    output(TreeDocumentEncoder.json(document).compactText)
                    printed += 1
                }
            }
            guard printed > 0 else {
                errors("narrator-atspi: no window" + (application.map { " of an application named '\($0)'" } ?? "") + " is on the accessibility bus")
                return 1
            }
            return 0
        }
    }
}

@testable import NarratorCLI
import NarratorProtocol
import Testing

@Suite struct CommandNameTests {
    /// narratorctl spells its commands itself (with help and argument grammar); the protocol's
    /// names are spelt once in CommandName. Every protocol command has its narratorctl command.
    @Test func everyProtocolCommandHasANarratorctlCommand() {
        let spoken: [CommandName: String] = [.subscribe: "monitor", .rotor: "rotor"]
        let names = Set(commandCatalog.map(\.name))
        for command in CommandName.allCases {
            let name = spoken[command] ?? command.rawValue
            #expect(names.contains(name), "no narratorctl command for the protocol's \(command.rawValue)")
        }
    }
}

import Foundation
import NarratorCLI

// The only place that touches the process: arguments in, text out, exit status.
let console = Console(
    out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    err: { text in FileHandle.standardError.write(Data(text.utf8)) },
    readStandardInput: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
)
let arguments = Array(CommandLine.arguments.dropFirst())
exit(NarratorCtl.run(arguments, environment: ProcessInfo.processInfo.environment, console: console).rawValue)

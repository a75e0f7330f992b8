import Foundation
import NarratorCLI

// The only place that touches the process: arguments in, text out, exit status.

// `monitor` and `register --follow` run until interrupted: make sure Ctrl-C and SIGTERM reach
// us even when the parent handed down a mask that blocks them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
let console = Console(
    out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    err: { text in FileHandle.standardError.write(Data(text.utf8)) },
    readStandardInput: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
)
let arguments = Array(CommandLine.arguments.dropFirst())
exit(NarratorCtl.run(arguments, environment: ProcessInfo.processInfo.environment, console: console).rawValue)

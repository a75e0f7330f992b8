import Foundation
import NarratorATSPI

// The only place that touches the process: arguments in, lines out, exit status out.
exit(BridgeMain.run(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
    output: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
    errors: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }))

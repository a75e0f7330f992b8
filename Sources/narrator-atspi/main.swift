import Foundation
import NarratorATSPI

// The only place that touches the process: arguments in, lines out, exit status out.
exit(BridgeMain.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    output: { print($0) },
    errors: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }))

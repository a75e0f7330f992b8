import Glibc
import NarratorATSPI
import NarratorSystem

// The only place that touches the process: arguments in, lines out, exit status out. Without
// Foundation: linked statically (make deb), it would bring ICU's data, tens of MiB, for nothing.
exit(BridgeMain.run(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current(),
    output: { StandardOutput.write($0 + "\n") },
    errors: { StandardError.write($0 + "\n") }))

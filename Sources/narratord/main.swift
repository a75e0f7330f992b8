import Glibc
import NarratorDaemon
import NarratorSystem

// The only place that touches the process: arguments and environment in, exit status out.
exit(DaemonMain.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current()))

import Foundation
import NarratorCore

// narratord, minimal for now: it starts, reports itself on stderr, and stops cleanly on
// SIGTERM or SIGINT. The socket server and speech are wired in by the daemon issue.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--version") {
    print("narratord \(NarratorVersion.daemon) (tree format \(NarratorVersion.treeFormat))")
    exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        narratord: the Narrator speech daemon.

        Usage: narratord [--help] [--version]

        Runs in the foreground until SIGTERM or SIGINT, then exits 0.
        """)
    exit(0)
}
if let unknown = arguments.first {
    FileHandle.standardError.write(Data("narratord: unknown option \(unknown) (see narratord --help)\n".utf8))
    exit(2)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("<6>narratord: \(message)\n".utf8))
}

// Block the stop signals before any other thread exists and wait for them synchronously: a
// signal is then never lost, whatever mask or disposition the parent handed down.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
log("started (version \(NarratorVersion.daemon), pid \(getpid()))")
var received: Int32 = 0
sigwait(&stopSignals, &received)
log("received \(received == SIGTERM ? "SIGTERM" : "SIGINT"), stopping")
exit(0)

import Glibc
import NarratorSystem

// narrator-flite: the Flite engine as a child process of narratord (docs/engine-protocol.md).
//   narrator-flite --list-voices   the voice listing as JSON, then exit
//   narrator-flite --serve         the `R` frame, then jobs read from stdin, frames on stdout

let usage = "usage: narrator-flite --list-voices | --serve\n"

switch CommandLine.arguments.dropFirst().first {
case "--list-voices" where CommandLine.arguments.count == 2:
    let voices = FliteVoices.registerAll()
    guard !voices.isEmpty else { noVoices() }
    print(FliteVoices.listing(voices).json.compactText)
    exit(0)
case "--serve" where CommandLine.arguments.count == 2:
    serve()
case "--help", "-h":
    print(usage, terminator: "")
    exit(0)
default:
    StandardError.write(usage)
    exit(2)
}

/// Registers the voices, says `R`, then serves jobs in order on this thread while the reader
/// thread queues them. Never returns: the reader thread ends the process at end of input.
func serve() -> Never {
    // A write to narratord after it has gone is reported as EPIPE (FrameWriter exits then)
    // rather than killing the process with a signal.
    signal(SIGPIPE, SIG_IGN)
    // Frames go to a private copy of standard output, and descriptor 1 becomes standard error:
    // anything Flite or the runtime might print can then never corrupt the frame stream.
    let frames = dup(1)
    guard frames >= 0, dup2(2, 1) == 1 else {
        StandardError.write("narrator-flite: cannot set up standard output: \(Errno(code: errno, syscall: "dup"))\n")
        exit(1)
    }
    let writer = FrameWriter(fd: frames)
    let voices = FliteVoices.registerAll()
    guard !voices.isEmpty else { noVoices() }
    let queue = JobQueue()
    let synthesis = FliteSynthesis(voices: voices, writer: writer, queue: queue)
    writer.send(.ready(FliteVoices.listing(voices)))
    RequestReader.start(queue: queue, writer: writer)
    while true {
        let (job, cancelled) = queue.next()
        synthesis.serve(job, cancelled: cancelled)
        // Idle: give back the heap a long sentence grew (a resident engine costs narratord's user memory).
        if !queue.finishCurrent() { Syscall.releaseFreedMemory() }
    }
}

func noVoices() -> Never {
    StandardError.write("narrator-flite: no Flite voice could be registered (is Debian's libflite1 installed whole?)\n")
    exit(1)
}

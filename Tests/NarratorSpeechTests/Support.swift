import Foundation
@testable import NarratorSpeech
import Synchronization

/// eSpeak NG can be owned by one engine per process, so all tests share this one.
let sharedEngine: EspeakEngine = {
    do {
        return try EspeakEngine()
    } catch {
        fatalError("eSpeak NG must be installed for these tests: \(error)")
    }
}()

/// Collects a player's events, for assertions on their order.
final class PlayerLog: Sendable {
    private let events = Mutex<[SpeechPlayer.Event]>([])

    var handler: @Sendable (SpeechPlayer.Event) -> Void {
        { [self] event in events.withLock { $0.append(event) } }
    }

    var all: [SpeechPlayer.Event] { events.withLock { $0 } }

    /// Waits (polling, generous timeout) until `predicate` holds.
    func wait(timeout: Duration = .seconds(20), until predicate: ([SpeechPlayer.Event]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(all) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return predicate(all)
    }
}

/// A fresh temporary directory.
func temporaryDirectory(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "narrator-\(name)-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs a program and returns its standard output (throws when it fails).
@discardableResult
func run(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    struct Failed: Error { let status: Int32 }
    guard process.terminationStatus == 0 else { throw Failed(status: process.terminationStatus) }
    return String(decoding: data, as: UTF8.self)
}

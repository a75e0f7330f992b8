import NarratorExperiments

/// Fuzzes replay traces: the input is a JSON-lines trace (at most 200 events are replayed).
///
/// Invariants: nothing crashes; parsing is deterministic; each event's line (what
/// `narratorctl log --trace` writes) parses back to the same event; replaying the events on the
/// virtual clock (each utterance 0.3 s unless the trace says how long it played) gives every
/// event that asks for speech exactly one final outcome, and every announcement one record;
/// no life ends before it was queued or starts before it was queued.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let first = Result { () throws(TraceError) in try AnnouncementTrace.parse(text) }
    let second = Result { () throws(TraceError) in try AnnouncementTrace.parse(text) }
    require(first == second, "parsing the same trace twice differs")
    guard case .success(let parsed) = first else { return 0 }
    for event in parsed {
        let line = AnnouncementTrace.line(event)
        let again = Result { () throws(TraceError) in try AnnouncementTrace.parse(line) }
        guard case .success(let events) = again, events.count == 1 else {
            require(false, "the line \(line) of \(event) does not parse back: \(again)")
            return 0
        }
        // Times are written to the nanosecond: compare what the line carries.
        require(AnnouncementTrace.line(events[0]) == line, "\(line) parses back to \(events[0])")
    }
    let events = Array(parsed.prefix(200))
    var simulation = AnnouncementSimulation(policy: .default) { _ in .milliseconds(300) }
    simulation.run(events)
    let speaking = events.indices.filter { events[$0].text != nil }
    require(Set(simulation.outcomes.keys) == Set(speaking), "outcomes for \(simulation.outcomes.keys.sorted()), events that speak \(speaking)")
    let announcements = events.filter { if case .announce = $0.kind { true } else { false } }.count
    require(simulation.records.count == announcements, "\(simulation.records.count) records for \(announcements) announcements")
    for record in simulation.records {
        require(record.endedAt >= record.queuedAt && (record.startedAt.map { $0 >= record.queuedAt } ?? true), "\(record) ends or starts before it was queued")
    }
    for record in simulation.speech {
        require(record.endedAt >= record.queuedAt && (record.startedAt.map { $0 >= record.queuedAt } ?? true), "\(record) ends or starts before it was queued")
    }
    return 0
}

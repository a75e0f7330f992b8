import Foundation
import NarratorBase
@testable import NarratorCLI
import NarratorSpeechPlan
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The replay timeline, parsed as XML: what a reader of the SVG sees, checked structurally.
private struct Picture {
    let root: XMLElement

    init(_ svg: String) throws {
        root = try #require(try XMLDocument(xmlString: svg, options: []).rootElement())
    }

    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    static func name(_ element: XMLElement) -> String { element.localName ?? element.name ?? "" }

    static func children(_ element: XMLElement) -> [XMLElement] { (element.children ?? []).compactMap { $0 as? XMLElement } }

    static func descendants(_ element: XMLElement) -> [XMLElement] {
        let direct = children(element)
        return direct + direct.flatMap(descendants)
    }

    /// The lanes, by policy.
    var lanes: [(policy: String, element: XMLElement)] {
        Self.descendants(root).filter { Self.attribute($0, "class") == "lane" }.map { (Self.attribute($0, "data-policy") ?? "", $0) }
    }

    /// Marks below `element` whose class list starts with `prefix` ("unspoken throttled", "speech"):
    /// a group holding a title and shapes, or (as older pictures drew them) a bare shape.
    static func groups(_ element: XMLElement, _ prefix: String) -> [XMLElement] {
        descendants(element).filter { attribute($0, "class").map { $0 == prefix || $0.hasPrefix(prefix + " ") } ?? false }
    }

    /// How many announcements the marks stand for (a cluster says how many in `data-count`).
    static func count(_ groups: [XMLElement]) -> Int {
        groups.map { attribute($0, "data-count").flatMap(Int.init) ?? 1 }.reduce(0, +)
    }

    /// A mark's tooltip: its `<title>`, which must be its first child.
    static func title(_ group: XMLElement) -> String? {
        guard let first = children(group).first, name(first) == "title" else { return nil }
        return first.stringValue
    }

    /// The shape that draws a mark: the mark itself, or the first shape in its group.
    static func shape(_ mark: XMLElement) -> XMLElement? {
        if name(mark) != "g" { return mark }
        return children(mark).first { ["rect", "circle", "polyline"].contains(name($0)) && attribute($0, "class") != "wait" }
    }

    /// A shape's horizontal extent.
    static func extent(_ shape: XMLElement) -> (x: Double, right: Double)? {
        func number(_ name: String) -> Double? { attribute(shape, name).flatMap(Double.init) }
        switch name(shape) {
        case "rect":
            guard let x = number("x"), let width = number("width") else { return nil }
            return (x, x + width)
        case "circle":
            guard let cx = number("cx"), let r = number("r") else { return nil }
            return (cx - r, cx + r)
        case "polyline":
            let xs = (attribute(shape, "points") ?? "").split(separator: " ").compactMap { $0.split(separator: ",").first.flatMap { Double($0) } }
            guard let low = xs.min(), let high = xs.max() else { return nil }
            return (low, high)
        default: return nil
        }
    }

    /// The bars of marks, as (x, right) in order of x.
    static func bars(_ groups: [XMLElement]) -> [(x: Double, right: Double)] {
        groups.compactMap { shape($0).flatMap(extent) }.sorted { $0.x < $1.x }
    }

    /// What a mark's shape looks like, colour aside: its element, how many points, filled or not.
    static func look(_ group: XMLElement) -> String {
        guard let shape = shape(group) else { return "" }
        let points = (attribute(shape, "points") ?? "").split(separator: " ").count
        let filled = (attribute(shape, "fill") ?? "black") != "none"
        return "\(name(shape)) \(points) points \(filled ? "filled" : "outline")"
    }

    /// Centres of the single marks (not counted bands) in order.
    static func centres(_ groups: [XMLElement]) -> [Double] {
        groups.filter { attribute($0, "data-count") == nil }.compactMap { shape($0).flatMap(extent) }.map { ($0.x + $0.right) / 2 }.sorted()
    }
}

private func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(seconds * 1e9)) }

private func record(
    _ id: UInt64, _ text: String, _ outcome: AnnouncementOutcome, queued: Double, started: Double? = nil, ended: Double, duplicateOf: UInt64? = nil
) -> AnnouncementRecord {
    AnnouncementRecord(
        announcement: Announcement(id: AnnouncementID(id), text: text, tree: "chat", element: "badge"), policy: "test", outcome: outcome,
        queuedAt: at(queued), startedAt: started.map(at), endedAt: at(ended), duplicateOf: duplicateOf.map(AnnouncementID.init))
}

private func focus(_ id: UInt64, _ text: String, started: Double, ended: Double, outcome: AnnouncementOutcome = .spoken) -> SpeechRecord {
    SpeechRecord(
        utterance: UtteranceID(id), kind: .focus, text: text, tree: "chat", element: "e\(id)", queuedAt: at(started), startedAt: at(started),
        endedAt: at(ended), outcome: outcome, interruptedBy: outcome == .interrupted ? .announcement(.default) : nil)
}

private func draw(_ records: [AnnouncementRecord], speech: [SpeechRecord] = []) throws -> Picture {
    let timeline = AnnouncementTimeline(
        lanes: [AnnouncementTimeline.Lane(policy: "test", records: records, speech: speech)], origin: at(0), title: "test")
    return try Picture(timeline.svg)
}

@Suite struct AnnouncementTimelineTests {
    @Test func everyOutcomeHasItsOwnMarkAndALegendEntry() throws {
        let records = [
            record(1, "one", .spoken, queued: 0, started: 0.1, ended: 1),
            record(2, "two", .interrupted, queued: 1, started: 1, ended: 1.5),
            record(3, "one", .deduplicated, queued: 2, ended: 2, duplicateOf: 1),
            record(4, "four", .throttled, queued: 3, ended: 3),
            record(5, "five", .expired, queued: 3.5, ended: 5),
            record(6, "six", .dropped, queued: 6, ended: 6),
            record(7, "seven", .cancelled, queued: 7, ended: 8),
        ]
        let picture = try draw(records)
        let lane = try #require(picture.lanes.first?.element)
        var looks: [String: AnnouncementOutcome] = [:]
        for outcome in AnnouncementTimeline.unspokenOutcomes {
            let marks = Picture.groups(lane, "unspoken \(outcome.rawValue)")
            #expect(marks.count == 1, "\(outcome)")
            let look = try #require(marks.first.map(Picture.look))
            #expect(looks[look] == nil, "\(outcome) is drawn like \(looks[look].map(\.rawValue) ?? "")")
            looks[look] = outcome
        }
        // Throttled and dropped, once both red crosses, differ in shape and colour.
        #expect(AnnouncementTimeline.styles[.throttled]!.shape != AnnouncementTimeline.styles[.dropped]!.shape)
        #expect(AnnouncementTimeline.styles[.throttled]!.colour != AnnouncementTimeline.styles[.dropped]!.colour)
        #expect(Set(AnnouncementTimeline.styles.values.map(\.colour)).count == AnnouncementOutcome.allCases.count)
        // Spoken and interrupted are bars; the interrupted one has the notch.
        let spoken = Picture.groups(lane, "speech spoken"), interrupted = Picture.groups(lane, "speech interrupted")
        #expect(spoken.count == 1 && interrupted.count == 1)
        #expect(interrupted.flatMap(Picture.children).contains { Picture.attribute($0, "class") == "cut" })
        #expect(!spoken.flatMap(Picture.children).contains { Picture.attribute($0, "class") == "cut" })
        // The legend names every outcome, focus speech, queued and the counted band.
        let legend = Set(Picture.groups(picture.root, "legend").compactMap { Picture.attribute($0, "class") })
        let expected = Set((AnnouncementOutcome.allCases.map(\.rawValue) + ["focus", "queued", "cluster"]).map { "legend " + $0 })
        #expect(legend == expected)
    }

    /// Speech Dispatcher clients' messages are drawn as messages, beside announcements: bars
    /// and marks on the message rows, titled by their SSIP priority and their words, not markup.
    @Test func ssipMessagesAreDrawnAsMessages() throws {
        func message(_ id: UInt64, _ text: String, _ outcome: AnnouncementOutcome, queued: Double, started: Double?, ended: Double) -> SpeechRecord {
            SpeechRecord(
                utterance: UtteranceID(id), kind: .ssip(.message), text: text, tree: nil, element: nil, queuedAt: at(queued),
                startedAt: started.map(at), endedAt: at(ended), outcome: outcome, interruptedBy: nil)
        }
        let picture = try draw(
            [record(1, "Saved", .spoken, queued: 0, started: 0, ended: 1)],
            speech: [
                focus(1, "Inbox, list", started: 1, ended: 2),
                message(2, #"<speak><mark name="0:3"/>Ana: hello</speak>"#, .spoken, queued: 2, started: 2, ended: 3),
                message(0, "Ben: hi", .throttled, queued: 2.5, started: nil, ended: 2.5),
            ])
        let lane = try #require(picture.lanes.first?.element)
        #expect(Picture.count(Picture.groups(lane, "queued")) == 3)
        #expect(Picture.groups(lane, "speech spoken").compactMap(Picture.title).contains { $0.hasPrefix("SSIP message “Ana: hello”: spoken") })
        #expect(Picture.groups(lane, "unspoken throttled").compactMap(Picture.title).first?.hasPrefix("SSIP message “Ben: hi”") == true)
        #expect(Picture.groups(lane, "focus").count == 1)
        let header = Picture.groups(lane, "lane-header").compactMap(Picture.title).first ?? ""
        #expect(header.hasPrefix("policy test: 3 messages"), "\(header)")
    }

    @Test func everyBarAndMarkHasATitleWithTextOutcomeAndTimes() throws {
        let records = [
            record(1, "Saved", .spoken, queued: 0.25, started: 0.5, ended: 1.25),
            record(2, "Saved", .deduplicated, queued: 0.28, ended: 0.28, duplicateOf: 1),
            record(3, "Uploading 40 percent", .throttled, queued: 3, ended: 4.5, duplicateOf: 4),
            record(4, "Uploading 50 percent", .cancelled, queued: 4.5, ended: 6),
        ]
        let picture = try draw(records, speech: [focus(10, "Message, text field", started: 2, ended: 2.75, outcome: .interrupted)])
        let lane = try #require(picture.lanes.first?.element)
        let marks = ["speech", "focus", "queued", "unspoken"].flatMap { Picture.groups(lane, $0) }
        #expect(marks.count == 1 + 1 + 4 + 3)
        for mark in marks { #expect(Picture.title(mark) != nil, "\(mark.xmlString)") }
        func title(_ prefix: String) -> String { Picture.groups(lane, prefix).first.flatMap(Picture.title) ?? "" }
        #expect(title("speech spoken").contains("“Saved”: spoken"))
        #expect(title("speech spoken").contains("queued 0.25 s, started 0.50 s (waited 0.25 s), ended 1.25 s"))
        #expect(title("speech spoken").contains("tree chat, element badge"))
        #expect(title("unspoken deduplicated").contains("“Saved”: deduplicated (repeat of #1)"))
        #expect(title("unspoken throttled").contains("replaced by #4"))
        #expect(title("unspoken throttled").contains("queued 3.00 s, throttled at 4.50 s"))
        #expect(title("unspoken cancelled").contains("“Uploading 50 percent”: cancelled"))
        #expect(title("focus interrupted").contains("focus “Message, text field”: interrupted (by announcement-default)"))
        #expect(title("focus interrupted").contains("started 2.00 s, ended 2.75 s"))
        #expect(title("queued").contains("“Saved” queued at 0.25 s: spoken"))
        // The lane's header says how each policy did.
        let header = try #require(Picture.groups(lane, "lane-header").first.flatMap(Picture.title))
        #expect(header.contains("policy test: 4 announcements, 1 spoken · 1 deduplicated · 1 throttled · 1 cancelled"))
    }

    @Test func backToBackUtterancesStaySeparateBars() throws {
        // Each starts the instant the one before ends, one of them lasting only 5 ms, over a long
        // trace where a second is a few pixels.
        var records: [AnnouncementRecord] = []
        var start = 0.0
        for (index, length) in [1.5, 0.005, 2, 1, 0.3].enumerated() {
            records.append(record(UInt64(index + 1), "message \(index)", index == 1 ? .interrupted : .spoken, queued: 0, started: start, ended: start + length))
            start += length
        }
        records.append(record(9, "late", .spoken, queued: 200, started: 200, ended: 201))
        let speech = [focus(20, "a", started: 10, ended: 11, outcome: .interrupted), focus(21, "b", started: 11, ended: 12)]
        let picture = try draw(records, speech: speech)
        let lane = try #require(picture.lanes.first?.element)
        for row in ["speech", "focus"] {
            let bars = Picture.bars(Picture.groups(lane, row))
            #expect(bars.count == (row == "speech" ? 6 : 2))
            for (before, after) in zip(bars, bars.dropFirst()) {
                #expect(after.x - before.right >= 1, "\(row): \(before) then \(after)")
            }
            #expect(bars.allSatisfy { $0.right - $0.x >= 1 })
        }
    }

    @Test func barExtentsKeepAGapAndAMinimumWidth() {
        let extents = AnnouncementTimeline.barExtents([(0, 10), (10, 10.1), (10.1, 10.2), (30, 40)])
        #expect(extents.count == 4)
        for (before, after) in zip(extents, extents.dropFirst()) {
            #expect(after.x >= before.x + before.width + AnnouncementTimeline.barGap)
        }
        #expect(extents.allSatisfy { $0.width >= AnnouncementTimeline.minimumBarWidth })
        #expect(extents[3].x == 31 && extents[3].width == 8)
    }

    @Test func denseMarksBecomeOneCountedBandWithEveryTextInItsTitle() throws {
        // A progress value every 200 ms for 20 s, all throttled, in a trace 216 s long.
        var records = (0..<98).map { record(UInt64($0 + 1), "Downloading \($0 + 1) percent", .throttled, queued: 0.2 * Double($0), ended: 0.2 * Double($0)) }
        records.append(record(200, "Download complete", .spoken, queued: 20, started: 215, ended: 216))
        let picture = try draw(records)
        let lane = try #require(picture.lanes.first?.element)
        let throttled = Picture.groups(lane, "unspoken throttled")
        #expect(Picture.count(throttled) == 98)
        #expect(throttled.count < 5, "\(throttled.count) marks for 98 announcements 1.6 px apart")
        let band = try #require(throttled.first { Picture.attribute($0, "data-count") != nil })
        let title = try #require(Picture.title(band))
        #expect(title.hasPrefix("\(Picture.attribute(band, "data-count")!) throttled, 0.00 s to "))
        #expect(title.contains("#1 “Downloading 1 percent” at 0.00 s"))
        #expect(Picture.descendants(band).contains { Picture.attribute($0, "class") == "count" && $0.stringValue?.hasPrefix("×") == true })
        // Marks far enough apart stay single.
        #expect(AnnouncementTimeline.clusters([0, 20, 25, 60], spacing: 10) == [0..<1, 1..<3, 3..<4])
    }
}

/// `replay --timeline` through the real binary on every shipped trace: the picture agrees with the
/// table, every mark has a title, bars never touch, and dense rows are drawn as counted bands.
@Suite struct ShippedTimelineTests {
    static let traces: [String] = {
        let directory = Binaries.repository + "/examples/traces"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
    }()

    @Test func thereAreTracesToDraw() { #expect(Self.traces.count >= 4) }

    @Test(arguments: traces) func timelineAgreesWithTheTableAndStaysReadable(trace: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-timeline-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let svg = directory + "/timeline.svg"
        let result = try Binaries.run(
            "narratorctl", ["replay", "examples/traces/" + trace, "--db", directory + "/replays.db", "--timeline", svg, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let summaries = try #require(reply["policies"] as? [[String: Any]])
        let picture = try Picture(String(contentsOfFile: svg, encoding: .utf8))
        #expect(picture.lanes.map(\.policy) == summaries.compactMap { $0["policy"] as? String })

        for (summary, lane) in zip(summaries, picture.lanes.map(\.element)) {
            let policy = summary["policy"] as? String ?? ""
            let outcomes = try #require(summary["outcomes"] as? [String: Int])
            #expect(Picture.count(Picture.groups(lane, "queued")) == summary["announcements"] as? Int, "\(policy)")
            for (outcome, count) in outcomes {
                let prefix = ["spoken", "interrupted"].contains(outcome) ? "speech " : "unspoken "
                #expect(Picture.count(Picture.groups(lane, prefix + outcome)) == count, "\(policy) \(outcome)")
            }
            let marks = ["speech", "focus", "queued", "unspoken"].flatMap { Picture.groups(lane, $0) }
            #expect(marks.allSatisfy { Picture.title($0) != nil }, "\(policy): a mark without a title")
            for row in ["speech", "focus"] {
                let bars = Picture.bars(Picture.groups(lane, row))
                #expect(zip(bars, bars.dropFirst()).allSatisfy { $1.x - $0.right >= 1 }, "\(policy) \(row): bars touch")
            }
            // No row is a smear: single marks are far enough apart to tell apart (thin ticks may
            // come closer than shapes); closer ones are one counted band.
            for (row, spacing) in [("queued", 3.0)] + AnnouncementOutcome.allCases.map({ ("unspoken " + $0.rawValue, 8.0) }) {
                let centres = Picture.centres(Picture.groups(lane, row))
                let closest = zip(centres, centres.dropFirst()).map { $1 - $0 }.min() ?? .infinity
                #expect(closest >= spacing, "\(policy) \(row): marks \(closest) px apart")
            }
        }
        if trace == "chat-burst.jsonl" {
            // Throttled and dropped announcements have different shapes (single marks; bands are alike).
            let lane = try #require(picture.lanes.first { $0.policy == "default" }?.element)
            func singles(_ row: String) -> [String] {
                Picture.groups(lane, row).filter { Picture.attribute($0, "data-count") == nil }.map(Picture.look)
            }
            let throttled = singles("unspoken throttled"), dropped = singles("unspoken dropped")
            #expect(!throttled.isEmpty && !dropped.isEmpty)
            #expect(Set(throttled).isDisjoint(with: dropped))
        }
        if trace == "download-progress.jsonl" {
            // 98 throttled progress values in 20 s: a counted band or two, not 98 marks.
            for lane in picture.lanes.map(\.element) {
                let throttled = Picture.groups(lane, "unspoken throttled")
                #expect(throttled.count <= 3 || Picture.count(throttled) == 0)
            }
        }
    }
}

import NarratorBase
import NarratorEngines
import NarratorModel
import NarratorSpeechPlan

/// Reads replies back into their types, for `narratorctl` and any Swift client: the inverse of
/// ``Reply/json``. A reply's shape depends on the command it answers, so the decoder is told it.
extension Reply {
    public init(json: JSONValue, answering command: CommandName) throws(ProtocolError) {
        var reader = try FieldReader.reader(json, at: "reply")
        id = reader.value("id")?.nonNull
        if try reader.bool("ok") {
            var body = FieldReader(reader.object, context: command.rawValue)
            outcome = .success(try ReplyBody.decode(&body, answering: command))
        } else {
            var error = try reader.object("error")
            let codeText = try error.string("code")
            guard let code = ErrorCode(rawValue: codeText) else {
                throw ProtocolError(.invalidField, "reply.error.code: unknown error code \"\(codeText)\"")
            }
            var problems: [DocumentProblem] = []
            if error.object["problems"] != nil {
                for var problem in try error.objects("problems") {
                    problems.append(DocumentProblem(path: try problem.string("path", nonEmpty: false), message: try problem.string("message", nonEmpty: false)))
                }
            }
            outcome = .failure(ReplyError(code, try error.string("message", nonEmpty: false), problems: problems))
        }
    }
}

extension ReplyBody {
    static func decode(_ r: inout FieldReader, answering command: CommandName) throws(ProtocolError) -> ReplyBody {
        switch command {
        case .hello:
            return .hello(protocol: try r.integer("protocol"), daemon: try r.string("daemon"), client: ClientID(rawValue: try r.unsigned("client")))
        case .register:
            return .registered(
                RegisterReport(tree: try r.string("tree"), stops: try r.integer("stops"), nodes: try r.integer("nodes"), replaced: try r.bool("replaced")))
        case .update:
            let tree = try r.string("tree")
            let element = try r.string("element")
            if r.object["focus"] != nil { return .updated(UpdateReport(tree: tree, element: element, focus: try FocusReport(&r))) }
            return .updated(UpdateReport(tree: tree, element: element, spokenValue: try r.optionalString("utterance", nonEmpty: false)))
        case .unregister:
            return .unregistered(tree: try r.string("tree"))
        case .trees:
            var trees: [TreeSummary] = []
            for var t in try r.objects("trees") {
                var owner: TreeSummary.Owner?
                if var o = try t.optionalObject("owner") { owner = TreeSummary.Owner(pid: try o.integer("pid"), name: try o.optionalString("name", nonEmpty: false)) }
                trees.append(
                    TreeSummary(
                        tree: try t.string("tree"), title: try t.optionalString("title", nonEmpty: false), language: try t.optionalString("language", nonEmpty: false),
                        nodes: try t.integer("nodes"), stops: try t.integer("stops"), owner: owner, ephemeral: try t.bool("ephemeral"),
                        focused: try t.bool("focused")))
            }
            return .trees(trees)
        case .show:
            var stops: [StopSummary] = []
            for var s in try r.objects("stops") {
                var frame: Rect?
                if let value = s.value("frame")?.nonNull {
                    guard case .array(let items) = value, items.count == 4, case .number(let x) = items[0], case .number(let y) = items[1],
                          case .number(let w) = items[2], case .number(let h) = items[3]
                    else { throw FieldReader.invalid(s.path("frame"), "[x, y, width, height]", value) }
                    frame = Rect(x: x, y: y, width: w, height: h)
                }
                stops.append(
                    StopSummary(
                        id: try s.string("id"), utterance: Utterance(text: try s.string("utterance", nonEmpty: false), hint: try s.optionalString("hint", nonEmpty: false)),
                        frame: frame))
            }
            return .stops(tree: try r.string("tree"), stops)
        case .export:
            return .exported(tree: try r.string("tree"), document: try r.required("document"))
        case .focus, .next, .previous, .first, .last, .touch, .cell:
            return .focus(try FocusReport(&r))
        case .activate, .action, .magicTap, .escape:
            return .delivered(try Delivery(&r))
        case .adjust:
            if try r.optionalBool("delivered") == true { return .delivered(try Delivery(&r)) }
            return .adjusted(
                AdjustReport(
                    utterance: try r.string("utterance", nonEmpty: false), focus: try Focus(try r.object("focus")), value: try r.number("value"),
                    boundary: try r.bool("boundary")))
        case .actions:
            return .actions(try r.strings("actions"))
        case .rotor:
            if r.object["rotors"] != nil {
                var rotors: [RotorSummary] = []
                for var rotor in try r.objects("rotors") {
                    let kindText = try rotor.string("kind")
                    guard let kind = RotorSummary.Kind(rawValue: kindText) else {
                        throw ProtocolError(.invalidField, "\(rotor.path("kind")): unknown rotor kind \"\(kindText)\"")
                    }
                    rotors.append(RotorSummary(name: try rotor.string("name"), kind: kind, items: try rotor.strings("items")))
                }
                return .rotors(rotors)
            }
            if let action = try r.optionalString("action") { return .selectedAction(action: action, focus: try Focus(try r.object("focus"))) }
            return .focus(try FocusReport(&r))
        case .announce:
            var problem: LogProblem?
            if var e = try r.optionalObject("log_error") {
                problem = LogProblem(reason: try e.string("reason"), message: try e.string("message", nonEmpty: false))
            }
            let priority = try r.choice("priority", AnnouncementPriority.self)
            return .announced(
                AnnounceReport(
                    announcement: AnnouncementID(try r.unsigned("announcement")), decision: try r.string("decision"),
                    priority: priority, key: try r.string("key", nonEmpty: false), policy: try r.string("policy"),
                    duplicateOf: try r.optionalUnsigned("duplicate_of").map(AnnouncementID.init), logged: try r.bool("logged"),
                    logProblem: problem))
        case .speak:
            return .spoke(text: try r.string("utterance", nonEmpty: false), utterance: UtteranceID(try r.unsigned("speech")))
        case .stop:
            return .stopped
        case .status:
            return .status(try StatusReport(&r))
        case .set, .get:
            return .setting(key: try r.string("key"), value: try r.string("value", nonEmpty: false))
        case .voices:
            var voices: [ListedVoice] = []
            for var v in try r.objects("voices") {
                let genderText = try v.string("gender")
                voices.append(
                    ListedVoice(
                        name: try v.string("name", nonEmpty: false), identifier: try v.string("identifier", nonEmpty: false), languages: try v.strings("languages"),
                        gender: InstalledVoice.Gender(rawValue: genderText) ?? .unspecified, variant: try v.optionalString("variant"),
                        engine: try v.optionalString("engine") ?? SpeechEngines.espeak.rawValue))
            }
            // A daemon from before paging sent every voice and no counts.
            return .voices(
                VoiceListing(
                    entries: voices, total: Int(clamping: try r.optionalUnsigned("total") ?? UInt64(voices.count)),
                    offset: Int(clamping: try r.optionalUnsigned("offset") ?? 0), variantCount: Int(clamping: try r.optionalUnsigned("variant_count") ?? 0)))
        case .subscribe:
            return .subscribed
        }
    }
}

extension Focus {
    init(_ reader: FieldReader) throws(ProtocolError) {
        var r = reader
        self.init(tree: try r.string("tree"), element: try r.string("element"))
    }
}

extension FocusReport {
    init(_ r: inout FieldReader) throws(ProtocolError) {
        self.init(
            utterance: try r.string("utterance", nonEmpty: false), hint: try r.optionalString("hint", nonEmpty: false),
            focus: try Focus(try r.object("focus")), boundary: try r.bool("boundary"))
    }
}

extension Delivery {
    init(_ r: inout FieldReader) throws(ProtocolError) {
        var focus: Focus?
        if let reader = try r.optionalObject("focus") { focus = try Focus(reader) }
        self.init(action: try r.string("action"), element: try r.string("element"), focus: focus)
    }
}

extension StatusReport {
    init(_ r: inout FieldReader) throws(ProtocolError) {
        var audio = try r.object("audio")
        let specText = try audio.string("spec")
        let spec: AudioSpec
        do { spec = try AudioSpec.parse(specText) } catch { throw ProtocolError(.invalidField, "\(audio.path("spec")): \(error)") }
        let output = OutputStatus(
            spec: spec, active: try audio.string("output"), fallback: try audio.bool("fallback"), detail: try audio.optionalString("detail", nonEmpty: false),
            stalled: try audio.optionalBool("stalled") ?? false)
        var announcements = try r.object("announcements")
        var treePolicies: [(tree: String, policy: String)] = []
        var trees = try announcements.object("trees")
        for key in trees.object.keys { treePolicies.append((key, try trees.string(key))) }
        var log = try r.object("log")
        var commit = try log.object("commit_ms")
        var problem: LogProblem?
        if let reason = try log.optionalString("reason") { problem = LogProblem(reason: reason, message: try log.optionalString("error", nonEmpty: false) ?? "") }
        var setAside: LogSetAside?
        if var aside = try log.optionalObject("set_aside") {
            setAside = LogSetAside(path: try aside.string("path"), reason: try aside.string("reason", nonEmpty: false))
        }
        var focus: Focus?
        if let reader = try r.optionalObject("focus") { focus = try Focus(reader) }
        var engines: [EngineStatus] = []
        for var engine in try r.optionalObjects("engines") ?? [] {
            let name = try engine.string("name")
            let health: EngineHealth
            switch try engine.string("state") {
            case "not started": health = .notStarted
            case "idle": health = .idle
            case "starting": health = .starting
            case "restarting": health = .restarting(reason: try engine.optionalString("reason", nonEmpty: false) ?? "", attempt: Int(clamping: try engine.optionalUnsigned("attempt") ?? 1))
            default: health = .ready
            }
            engines.append(EngineStatus(name: name, health: health))
        }
        var owners: [Owner] = []
        for var owner in try r.optionalObjects("owners") ?? [] {
            owners.append(Owner(name: try owner.optionalString("name", nonEmpty: false), pid: try owner.integer("pid"), trees: try owner.strings("trees")))
        }
        self.init(
            version: try r.string("version"), pid: try r.integer("pid"), uptime: try r.number("uptime"), socket: try r.optionalString("socket"),
            clients: try r.integer("clients"), trees: try r.integer("trees"), focus: focus, audio: output, voice: try r.string("voice", nonEmpty: false),
            speaking: try r.bool("speaking"), queue: try r.integer("queue"),
            announcements: Announcements(
                policy: try announcements.string("policy"), waiting: try announcements.integer("waiting"), treePolicies: treePolicies,
                deferred: try announcements.integer("deferred")),
            log: LogHealth(
                path: try log.string("path"), isOpen: try log.bool("open"), rowsWritten: try log.integer("rows"), rowsFailed: try log.integer("failed"),
                pending: try log.integer("pending"), reopenings: try log.integer("reopened"), problem: problem,
                commitLatencyP50: try commit.optionalNumber("p50").map { $0 / 1000 }, commitLatencyP99: try commit.optionalNumber("p99").map { $0 / 1000 },
                setAside: setAside),
            owners: owners)
        self.engines = engines
    }
}

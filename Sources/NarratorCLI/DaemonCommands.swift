import NarratorCommandLine
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan

private func request(_ command: RequestCommand) -> Command { .daemon(.send(command)) }
private func number(_ text: String, _ name: String, _ command: String) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite else { throw UsageError("\(command): \(name) must be a number, not \"\(text)\"", command: command) }
    return value
}
private func json(_ text: String, _ option: String, _ command: String, example: String) throws(UsageError) -> JSONValue {
    do { return try JSONParser().parse(text) } catch {
        throw UsageError("\(command): \(option) takes JSON, such as '\(example)'; \(error)", command: command)
    }
}

/// An `edit` or `caret` update from its option's JSON, its problems said as the option's.
private func textUpdate(
    _ text: String, _ option: String, example: String, _ decode: (JSONValue) throws(ProtocolError) -> TreeUpdate
) throws(UsageError) -> TreeUpdate {
    let value = try json(text, option, "update", example: example)
    do {
        return try decode(value)
    } catch {
        let key = option.dropFirst(2)
        throw UsageError("update: \(option): \(error.message.replacingOccurrences(of: "update.\(key)", with: String(key)))", command: "update")
    }
}

/// An argument's value as its type, once the parser has checked it against the choices the
/// argument takes from that type.
private func choice<Value: RawRepresentable<String>>(_ text: String, _ command: String) throws(UsageError) -> Value {
    guard let value = Value(rawValue: text) else { throw UsageError("\(command): \"\(text)\" is not a choice", command: command) }
    return value
}

private let treeOption = OptionSpec("--tree", value: "TREE", help: "navigate this tree instead of the focused one")
private let languageOption = OptionSpec(
    "--language", value: "LANG", help: "the text's language, which picks its voice even over `set voice` (e.g. ar, de, en-GB; default: the tree's, else the focused tree's)")

/// The commands that talk to narratord, one request each.
let daemonCommands: [CommandSpec] = {
    func move(_ move: Workspace.Move, _ summary: String) -> CommandSpec {
        CommandSpec(name: move.rawValue, summary: summary, options: [treeOption]) { parsed throws(UsageError) in
            request(.move(move, tree: parsed.value("--tree")))
        }
    }
    return [
        CommandSpec(
            name: "register", summary: "register a tree document with the daemon",
            arguments: [ArgumentSpec("FILE", help: "a tree document (JSON); - reads standard input")],
            options: [
                OptionSpec("--ephemeral", help: "with --follow: unregister the tree when narratorctl stops following"),
                OptionSpec("--follow", help: "stay connected as the tree's owner and print the events it receives (actions, values) as JSON lines"),
            ],
            discussion: """
                The connection that registers a tree owns it: activate, named actions, magic tap, escape and
                non-declarative adjustments are sent to it as events. Without --follow narratorctl exits at once
                and the tree stays registered without an owner. --ephemeral needs --follow: the tree lasts as
                long as the connection, and without --follow that ends at once. With --follow narratorctl
                exits 3 when the daemon closes the connection.
                """
        ) { parsed throws(UsageError) in
            if parsed.has("--ephemeral") && !parsed.has("--follow") {
                throw UsageError(
                    "register: --ephemeral needs --follow: an ephemeral tree is unregistered when its connection ends, and without "
                        + "--follow narratorctl ends it at once; add --follow to keep the tree while narratorctl runs, or drop --ephemeral",
                    command: "register")
            }
            return .daemon(.register(file: parsed.positionals[0], ephemeral: parsed.has("--ephemeral"), follow: parsed.has("--follow")))
        },
        CommandSpec(
            name: "update", summary: "change an element: set properties, replace its children, or remove it; or retitle the tree",
            arguments: [ArgumentSpec("TREE", help: "the tree"), ArgumentSpec("ELEMENT", help: "the element id")],
            options: [
                OptionSpec("--set", value: "JSON", help: #"properties to set, e.g. '{"value": "4"}' (null clears one)"#),
                OptionSpec("--children", value: "JSON", help: "a JSON array of nodes replacing the element's children"),
                OptionSpec("--remove", help: "remove the element and its subtree"),
                OptionSpec("--edit", value: "JSON", help: #"replace characters of the value, e.g. '{"range": [5, 0], "text": "x"}' types x at 5"#),
                OptionSpec("--caret", value: "JSON", help: #"move the caret or selection, e.g. '{"range": [6, 0], "unit": "word"}' (unit: character, word or line)"#),
                OptionSpec("--title", value: "TEXT", help: "the tree's new title (ELEMENT is its root): a window renamed"),
                OptionSpec("--announce", help: "speak the new value if the element has focus"),
                OptionSpec("--notify", value: "KIND", help: "screenChanged or layoutChanged: move focus and speak it", choices: ["screenChanged", "layoutChanged"]),
                OptionSpec("--focus", value: "ID", help: "with --notify: the element to focus (default: the first)"),
            ]
        ) { parsed throws(UsageError) in
            let element = parsed.positionals[1]
            let given = ["--set", "--children", "--edit", "--caret", "--title"].filter { parsed.value($0) != nil }.count + (parsed.has("--remove") ? 1 : 0)
            guard given == 1 else { throw UsageError("update: give exactly one of --set, --children, --edit, --caret, --title or --remove", command: "update") }
            let update: TreeUpdate
            if let set = parsed.value("--set") {
                update = .setProperties(element: element, properties: try json(set, "--set", "update", example: #"{"value": "4"}"#))
            } else if let children = parsed.value("--children") {
                update = .replaceChildren(element: element, children: try json(children, "--children", "update", example: #"[{"id": "ok", "label": "OK", "traits": ["button"]}]"#))
            } else if let edit = parsed.value("--edit") {
                update = try textUpdate(edit, "--edit", example: #"{"range": [5, 0], "text": "x"}"#) { (json) throws(ProtocolError) in try TreeUpdate.edit(json, element: element) }
            } else if let caret = parsed.value("--caret") {
                update = try textUpdate(caret, "--caret", example: #"{"range": [6, 0], "unit": "word"}"#) { (json) throws(ProtocolError) in try TreeUpdate.caret(json, element: element) }
            } else if let title = parsed.value("--title") {
                update = .retitle(element: element, title: title)
            } else {
                update = .remove(element: element)
            }
            let focus = parsed.value("--focus")
            var notify: LayoutNotification?
            switch parsed.value("--notify") {
            case "screenChanged": notify = .screenChanged(element: focus)
            case "layoutChanged": notify = .layoutChanged(element: focus)
            default:
                guard focus == nil else { throw UsageError("update: --focus needs --notify", command: "update") }
            }
            return request(.update(tree: parsed.positionals[0], update: update, announce: parsed.has("--announce"), notify: notify))
        },
        CommandSpec(name: "unregister", summary: "remove a registered tree", arguments: [ArgumentSpec("TREE", help: "the tree")]) {
            parsed throws(UsageError) in request(.unregister(tree: parsed.positionals[0]))
        },
        CommandSpec(name: "trees", summary: "list the registered trees") { _ throws(UsageError) in request(.trees) },
        CommandSpec(
            name: "export", summary: "print a registered tree as a tree document, as it is now (after updates)",
            arguments: [ArgumentSpec("TREE", help: "the tree")],
            discussion: """
                Prints the document indented, so that it can be saved, read, audited or registered again;
                with --json the reply, whose "document" member holds it.
                """
        ) { parsed throws(UsageError) in request(.export(tree: parsed.positionals[0])) },
        CommandSpec(
            name: "focus", summary: "focus a tree (its last focused or first element) or an element",
            arguments: [ArgumentSpec("TREE", help: "the tree"), ArgumentSpec("ELEMENT", help: "the element id", optional: true)]
        ) { parsed throws(UsageError) in
            request(.focus(tree: parsed.positionals[0], element: parsed.positionals.count > 1 ? parsed.positionals[1] : nil))
        },
        move(.next, "move focus to the next element"),
        move(.previous, "move focus to the previous element"),
        move(.first, "move focus to the first element"),
        move(.last, "move focus to the last element"),
        CommandSpec(
            name: "touch", summary: "focus the element at a screen point",
            arguments: [ArgumentSpec("X", help: "screen x"), ArgumentSpec("Y", help: "screen y")], options: [treeOption]
        ) { parsed throws(UsageError) in
            request(.touch(x: try number(parsed.positionals[0], "X", "touch"), y: try number(parsed.positionals[1], "Y", "touch"), tree: parsed.value("--tree")))
        },
        CommandSpec(name: "activate", summary: "activate the focused element (double tap)") { _ throws(UsageError) in request(.activate) },
        CommandSpec(
            name: "adjust", summary: "increment or decrement the focused element",
            arguments: [ArgumentSpec("DIRECTION", help: "which way", choices: AdjustableValue.Direction.allCases.map(\.rawValue))]
        ) { parsed throws(UsageError) in
            request(.adjust(try choice(parsed.positionals[0], "adjust")))
        },
        CommandSpec(name: "actions", summary: "list the focused element's custom actions") { _ throws(UsageError) in request(.actions) },
        CommandSpec(name: "action", summary: "perform a custom action of the focused element", arguments: [ArgumentSpec("NAME", help: "the action's name")]) {
            parsed throws(UsageError) in request(.action(name: parsed.positionals[0]))
        },
        CommandSpec(name: "magic-tap", summary: "the main action, handled by the nearest element up from the focus") { _ throws(UsageError) in request(.magicTap) },
        CommandSpec(name: "escape", summary: "dismiss, handled by the nearest element up from the focus") { _ throws(UsageError) in request(.escape) },
        CommandSpec(
            name: "rotor", summary: "list rotors, or move to the next/previous item of one (past the last it goes round to the first)",
            arguments: [
                ArgumentSpec("NAME", help: "headings, links, controls (form fields), actions, or a custom rotor", optional: true),
                ArgumentSpec(
                    "DIRECTION", help: "which item to move to", optional: true, choices: Workspace.Move.allCases.map(\.rawValue),
                    shownDefault: Workspace.Move.next.rawValue),
            ]
        ) { parsed throws(UsageError) in
            guard let name = parsed.positionals.first else { return request(.rotors) }
            let direction: Workspace.Move = parsed.positionals.count > 1 ? try choice(parsed.positionals[1], "rotor") : .next
            return request(.rotor(name: name, direction: direction))
        },
        CommandSpec(
            name: "cell", summary: "move focus to the neighbouring cell in the table around it (at the edge it stays and says so)",
            arguments: [ArgumentSpec("DIRECTION", help: "which way", choices: Workspace.CellDirection.allCases.map(\.rawValue))]
        ) { parsed throws(UsageError) in
            request(.cell(try choice(parsed.positionals[0], "cell")))
        },
        CommandSpec(
            name: "announce", summary: "queue an announcement",
            arguments: [ArgumentSpec("TEXT", help: "what to say", variadic: true)],
            options: [
                OptionSpec("--priority", value: "P", help: "low waits, default interrupts, high cannot be interrupted", choices: ["low", "default", "high"]),
                OptionSpec("--tree", value: "TREE", help: "the screen it belongs to"),
                OptionSpec("--element", value: "ID", help: "the control it is about"),
                OptionSpec("--key", value: "KEY", help: "deduplication key (default: the normalized text)"),
                languageOption,
            ]
        ) { parsed throws(UsageError) in
            request(
                .announce(
                    text: parsed.positionals.joined(separator: " "), priority: parsed.value("--priority").flatMap(AnnouncementPriority.init(rawValue:)) ?? .default,
                    tree: parsed.value("--tree"), element: parsed.value("--element"), key: parsed.value("--key"), language: parsed.value("--language")))
        },
        CommandSpec(
            name: "speak", summary: "say text now, interrupting focus speech", arguments: [ArgumentSpec("TEXT", help: "what to say", variadic: true)],
            options: [languageOption]
        ) { parsed throws(UsageError) in
            request(.speak(text: parsed.positionals.joined(separator: " "), language: parsed.value("--language")))
        },
        CommandSpec(name: "stop", summary: "silence speech and drop what is waiting") { _ throws(UsageError) in request(.stop) },
        CommandSpec(name: "status", summary: "uptime, clients, trees, focus, audio output, voice, queue") { _ throws(UsageError) in request(.status) },
        CommandSpec(
            name: "set", summary: "change a speech setting (voice, rate, pitch, volume, punctuation, hints, hint-delay, engine, engine.KIND, long-text-words, engine-idle)",
            arguments: [ArgumentSpec("KEY", help: "the setting", choices: SpeechSettings.keys), ArgumentSpec("VALUE", help: "its new value")]
        ) { parsed throws(UsageError) in
            request(.set(key: parsed.positionals[0], value: .string(parsed.positionals[1])))
        },
        CommandSpec(name: "get", summary: "print a speech setting", arguments: [ArgumentSpec("KEY", help: "the setting", choices: SpeechSettings.keys)]) {
            parsed throws(UsageError) in request(.get(key: parsed.positionals[0]))
        },
        CommandSpec(
            name: "voices", summary: "list every engine's voices, and with --variants each eSpeak NG voice with each variant",
            options: [
                OptionSpec("--engine", value: "NAME", help: "only this engine's voices (espeak-ng, flite, piper: narratorctl status lists those installed)"),
                OptionSpec("--language", value: "LANG", help: "only voices that speak this language (de keeps de and de-ch; en-gb keeps en-gb-x-rp)"),
                OptionSpec("--name", value: "TEXT", help: "only names or identifiers that hold TEXT, in any case (German, grandma, German+, gmw/de)"),
                OptionSpec("--variants", help: "list each voice with each variant too (NAME+VARIANT), not only the voices"),
                OptionSpec("--offset", value: "N", help: "skip the first N matches"),
                OptionSpec("--limit", value: "N", help: "list at most N matches"),
            ],
            discussion: """
                Every voice can be spoken with any of eSpeak NG's variants (a timbre and pitch: grandma,
                Mr_Serious, female2, ...): "narratorctl set voice German+grandma" picks one, as Speech
                Dispatcher's clients do with the names its "spd-say -L" lists. Without --variants the
                list folds them: one line per voice, and the number of variants on standard error.
                --language, --name, --offset and --limit narrow a long list; when --limit cuts it,
                standard error says which matches were shown and how many there are. Flite's and
                Piper's voices (when installed) follow eSpeak NG's, with an ENGINE column; "set voice"
                takes them by name (slt) or as ENGINE/NAME (flite/slt).
                """
        ) { parsed throws(UsageError) in
            func count(_ option: String, from minimum: Int) throws(UsageError) -> Int? {
                guard let text = parsed.value(option) else { return nil }
                guard let n = Int(text), n >= minimum else {
                    throw UsageError("voices: \(option) must be a whole number from \(minimum), not \"\(text)\"", command: "voices")
                }
                return n
            }
            return request(
                .voices(
                    VoiceQuery(
                        language: parsed.value("--language"), name: parsed.value("--name"), variants: parsed.has("--variants"),
                        offset: try count("--offset", from: 0) ?? 0, limit: try count("--limit", from: 1), engine: parsed.value("--engine"))))
        },
        CommandSpec(
            name: "monitor", summary: "print each utterance as it is spoken, until interrupted",
            discussion: """
                Prints a line per utterance as it starts (kind, tree/element, text); with --json, every speech
                event as the daemon sends it, one JSON object a line, the final ones with the outcome that
                "narratorctl log" shows (spoken, interrupted, cancelled). Exits 3 when the daemon closes the
                connection.
                """
        ) { _ throws(UsageError) in
            .daemon(.monitor)
        },
        CommandSpec(name: "hello", summary: "check the daemon is there and print its versions") { _ throws(UsageError) in
            request(.hello(client: "narratorctl"))
        },
    ]
}()

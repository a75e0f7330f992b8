import NarratorModel
import NarratorProtocol

/// Fuzzes the socket protocol: each input line is one request, decoded by `RequestDecoder` and
/// then carried out on a `Workspace` the way the daemon does, so that registers, updates and
/// navigation run in whatever order the fuzzer invents.
///
/// Invariants: nothing crashes; every refused request and every failed command carries a
/// non-empty message; after each command the focus (if any) is on a stop of a registered tree;
/// a tree after updates still exports to a document that decodes equal to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let requestDecoder = RequestDecoder()
    var workspace = Workspace()
    let buffer = UnsafeBufferPointer(start: data, count: size)
    for line in buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(64) {
        switch requestDecoder.decode(UnsafeBufferPointer(rebasing: line)) {
        case .failure(let failure):
            require(!failure.error.message.isEmpty, "refused request without a message (\(failure.error.code))")
        case .success(let request):
            do {
                try perform(request.command, on: &workspace)
            } catch {
                require(!error.message.isEmpty, "command failed without a message (\(error.code))")
            }
            check(workspace)
        }
    }
    return 0
}

func perform(_ command: RequestCommand, on workspace: inout Workspace) throws(NarratorError) {
    switch command {
    case .register(let json, _, _):
        let document: TreeDocument
        do { document = try workspace.decoder.decode(json) } catch { throw .invalidDocument(error) }
        workspace.register(document)
    case .update(let tree, let update, _, let notify):
        _ = try workspace.update(tree: tree, update)
        switch notify {
        case .screenChanged(let element)?, .layoutChanged(let element)?: _ = try workspace.focus(tree: tree, element: element)
        case nil: break
        }
    case .unregister(let tree): try workspace.unregister(tree)
    case .show(let tree): _ = try workspace.stops(of: tree)
    case .export(let tree):
        let document = try workspace.tree(tree).document
        _ = TreeDocumentEncoder.json(document)
    case .focus(let tree, let element, let saying): _ = try workspace.focus(tree: tree, element: element, saying: saying)
    case .move(let move, let tree): _ = try workspace.move(move, tree: tree)
    case .touch(let x, let y, let tree): _ = try workspace.touch(x: x, y: y, tree: tree)
    case .activate: _ = try workspace.activate()
    case .adjust(let direction): _ = try workspace.adjust(direction)
    case .actions: _ = try workspace.actions()
    case .action(let name): _ = try workspace.perform(action: name)
    case .magicTap: _ = try workspace.route(.magicTap)
    case .escape: _ = try workspace.route(.escape)
    case .rotors: _ = try workspace.rotors()
    case .rotor(let name, let direction, let within): _ = try workspace.rotor(name, direction, within: within)
    case .cell(let direction): _ = try workspace.moveInTable(direction)
    case .hello, .trees, .announce, .speak, .stop, .status, .set, .get, .voices, .subscribe:
        // Speech, settings and subscriptions live in the daemon, outside the pure core.
        break
    }
}

/// The workspace is consistent: focus sits on a stop, and every tree round-trips as a document.
func check(_ workspace: Workspace) {
    if let focus = workspace.focus {
        guard let tree = workspace.trees[focus.tree] else {
            require(false, "focus is in \(focus.tree), which is not registered")
            return
        }
        if case .stop(let position) = tree.lookup(focus.element) {
            require(tree.stopID(at: position) == focus.element, "focus on \(focus.element), which speaks for another stop")
        } else {
            require(false, "focus on \(focus.element), which is \(tree.lookup(focus.element))")
        }
    }
    for tree in workspace.trees.values {
        let document = tree.document
        let text = JSONWriter().string(TreeDocumentEncoder.json(document))
        do {
            let again = try TreeDocumentDecoder().decode(text: text)
            require(again == document, "tree \(tree.name) exports as a different document: \(text)")
        } catch {
            require(false, "tree \(tree.name) exports an invalid document: \(error)\n\(text)")
        }
    }
}

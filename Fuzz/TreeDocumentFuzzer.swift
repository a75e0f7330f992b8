import NarratorModel

/// Fuzzes the tree document path an app's `register` takes: JSON parsing, the decoder and
/// validator, compiling an `AccessibilityTree`, utterances, navigation and the audit.
///
/// Invariants: nothing crashes; parsed JSON written back parses to the same value; decoding
/// straight from the bytes gives what walking the parsed value gives, document or errors; a rejected
/// document lists at least one problem and every problem has a message; an accepted document
/// re-encodes (`TreeDocumentEncoder`) to a document that decodes equal to it; a compiled tree
/// gives its document back unchanged; every stop is found again by its id.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let decoder = TreeDocumentDecoder()

    // The JSON layer alone: writing a parsed value and parsing it again is lossless.
    if let json = try? decoder.limits.parser.parse(bytes) {
        let written = JSONWriter().string(json)
        let reparsed = try? decoder.limits.parser.parse(written)
        require(reparsed == json, "JSON written as \(written) parses to \(String(describing: reparsed))")
    }

    // The direct path (`decode(bytes:)`) and the value-tree walk agree, document and id index
    // or every problem, so that a register request is judged the same either way.
    let viaBytes = Result { () throws(DocumentError) in try decoder.decode(bytes: bytes) }
    let viaTree = Result { () throws(DocumentError) in
        let json: JSONValue
        do throws(JSONSyntaxError) { json = try decoder.limits.parser.parse(bytes) } catch { throw .syntax(error) }
        return try decoder.decode(json)
    }
    require(viaBytes == viaTree, "decoded from the bytes: \(viaBytes)\nthrough the value tree: \(viaTree)")
    if case .success(let direct) = viaBytes, case .success(let walked) = viaTree {
        let directTree = AccessibilityTree(document: direct), walkedTree = AccessibilityTree(document: walked)
        for position in 0..<directTree.stopCount {
            let id = directTree.stopID(at: position)
            require(walkedTree.lookup(id) == directTree.lookup(id), "\(id) is found at different places either way")
        }
    }

    let document: TreeDocument
    do {
        document = try viaBytes.get()
    } catch {
        require(!error.problems.isEmpty, "a rejected document lists no problem")
        for problem in error.problems {
            require(!problem.message.isEmpty, "a problem at \(problem.path) has no message")
        }
        return 0
    }

    // Encoding is lossless for an accepted document.
    let encoded = JSONWriter().string(TreeDocumentEncoder.json(document))
    do {
        let again = try decoder.decode(text: encoded)
        require(again == document, "re-encoded document decodes differently: \(encoded)")
    } catch {
        require(false, "re-encoded document is rejected: \(error)\n\(encoded)")
    }

    let tree = AccessibilityTree(document: document)
    require(tree.document == document, "compiled tree gives back a different document")
    for position in 0..<tree.stopCount {
        let id = tree.stopID(at: position)
        require(tree.lookup(id) == .stop(position), "stop \(position) (\(id)) is looked up as \(tree.lookup(id))")
        _ = tree.utterance(atStop: position)
        _ = tree.actions(atStop: position)
        _ = tree.spokenValue(atStop: position)
        if let point = tree.activationPoint(atStop: position), let hit = tree.hitTest(point) {
            require(tree.stopFrame(at: hit)?.contains(point) == true, "hit test at \(point) picked a stop not containing it")
        }
    }
    _ = tree.audit()

    // Navigation over the whole tree, bounded so that a big tree stays cheap.
    var workspace = Workspace(decoder: decoder)
    workspace.register(document)
    guard (try? workspace.focus(tree: document.name)) != nil else { return 0 }
    for _ in 0..<min(tree.stopCount, 64) {
        _ = try? workspace.adjust(.up)
        _ = try? workspace.actions()
        _ = try? workspace.route(.escape)
        _ = try? workspace.move(.next)
    }
    if let rotors = try? workspace.rotors() {
        for rotor in rotors.prefix(8) {
            _ = try? workspace.rotor(rotor.name, .next)
            _ = try? workspace.rotor(rotor.name, .previous)
        }
    }
    _ = try? workspace.move(.last)
    _ = try? workspace.activate()
    return 0
}

import NarratorBase
import NarratorModel
import NarratorProtocol

/// A request line taken as far as it goes without the session's state: decoded and, for
/// `register`, its document decoded and compiled into the tree it registers.
///
/// Preparing costs what the line is long (a 100,000-element document takes a fifth of a second)
/// and needs nothing of the session, so the daemon prepares large lines off its loop thread; the
/// session, given the result (``SessionInput/prepared(_:_:)``), only checks who may register the
/// tree and swaps it in. Preparing is the same pure work the session does for a line it is given
/// whole, so a line gets the same reply whichever thread prepared it.
public enum PreparedRequest: Sendable {
    /// Any request but `register`: decoded, or why it could not be.
    case decoded(Result<Request, RequestFailure>)
    /// A `register` request, with its tree compiled or the reply that refuses its document.
    case register(id: JSONValue?, tree: Result<AccessibilityTree, ReplyError>, ephemeral: Bool, focusEvents: Bool)
    /// An `update` applied to a copy of its large tree (``PreparedUpdate``).
    case update(PreparedUpdate)
    /// A line that could not be read (not UTF-8): refused as the framing refuses one.
    case refused(LineProblem)

    /// Decodes `line` with `requests` and a `register`'s document with `documents` (the session's
    /// own, `Workspace.decoder`, so that the limits are the same).
    public init(line: consuming String, requests: RequestDecoder, documents: TreeDocumentDecoder) {
        let decoded = requests.decode(line)
        // The line's text is freed before its document is decoded: the two are never resident together.
        _ = consume line
        guard case .success(let request) = decoded, case .register(let document, let ephemeral, let focusEvents) = request.command else {
            self = .decoded(decoded)
            return
        }
        let id = request.id
        _ = consume decoded
        self = .register(
            id: id, tree: Result { () throws(ReplyError) in try Self.compile(document, decoder: documents) }, ephemeral: ephemeral,
            focusEvents: focusEvents)
    }

    /// A large line decoded as far as the request, its document left undecoded: what the session
    /// does itself once it is shutting down, when the request is refused anyway.
    public static func decoded(_ line: LargeLine, requests: RequestDecoder) -> PreparedRequest {
        guard let text = String(validating: line.joined(), as: UTF8.self) else { return .refused(.invalidUTF8) }
        return .decoded(requests.decode(text))
    }

    /// The request's id, for the reply (nil when it had none or it could not be read).
    public var id: JSONValue? {
        switch self {
        case .decoded(.success(let request)): request.id
        case .decoded(.failure(let failure)): failure.id
        case .register(let id, _, _, _): id
        case .update(let prepared): prepared.request.id
        case .refused: nil
        }
    }

    /// A register request's document, decoded and compiled; the error is the reply that refuses it.
    public static func compile(_ json: consuming RawJSON, decoder: TreeDocumentDecoder) throws(ReplyError) -> AccessibilityTree {
        let document: TreeDocument
        do {
            document = try decoder.decode(json)
            // The request's document text is freed before the tree is compiled, so that the
            // two are never resident together: a lower peak.
            _ = consume json
        } catch {
            throw ReplyError(
                .invalidDocument,
                "the tree document is invalid (\(error.problems.count) problem(s)): " + error.problems.map(\.description).joined(separator: "; "),
                problems: error.problems)
        }
        // The last use of the document: its nodes move into the compiled tree, not copied.
        return AccessibilityTree(document: document)
    }
}

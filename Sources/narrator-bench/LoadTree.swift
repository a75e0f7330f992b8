
/// The small tree each load-test client registers, and what the daemon must say for each stop.
/// Four stops, one per band of the screen, so that a touch in a band must land on that stop.
struct LoadTree {
    let name: String
    let title: String
    let ephemeral: Bool

    static let stopIDs = ["head", "alpha", "level", "note"]
    static let levelRange = 0.0...10.0

    init(client: Int, ephemeral: Bool) {
        name = "load-\(client)"
        title = "Load \(client)"
        self.ephemeral = ephemeral
    }

    /// The register request's document.
    var document: String {
        """
        {"tree": "\(name)", "title": "\(title)", "language": "en", "root": {"id": "root", "frame": [0, 0, 400, 400], "children": [\
        {"id": "head", "label": "Header \(name)", "traits": ["header"], "frame": [0, 0, 400, 50]}, \
        {"id": "alpha", "label": "Alpha", "hint": "Starts alpha", "traits": ["button"], "frame": [0, 100, 400, 50]}, \
        {"id": "level", "label": "Level", "adjustable": {"value": 5, "min": 0, "max": 10, "step": 1}, "frame": [0, 200, 400, 50]}, \
        {"id": "note", "label": "Note", "value": "v0", "frame": [0, 300, 400, 50]}]}}
        """
    }

    /// A point inside stop `index` (screen space), and one in the gap above it that hits nothing.
    static func point(inStop index: Int) -> (x: Double, y: Double) { (37, Double(index * 100 + 25)) }
    static func gap(beforeStop index: Int) -> (x: Double, y: Double) { (37, Double(index * 100 + 75)) }

    /// The utterance of stop `index` given the current level and note values (without the title).
    func utterance(ofStop index: Int, level: Double, note: String) -> String {
        switch index {
        case 0: "Header \(name), heading"
        case 1: "Alpha, button"
        case 2: "Level, \(Self.spoken(level)), adjustable"
        default: "Note, \(note)"
        }
    }

    func hint(ofStop index: Int) -> String? { index == 1 ? "Starts alpha" : nil }

    static func spoken(_ value: Double) -> String { String(Int(value)) }
}

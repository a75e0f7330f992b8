import NarratorModel

/// A web page's regions as Orca's structural keys reach them: its landmarks (the `landmark`
/// role, or a form or section whose `xml-roles` names a landmark), lists, live regions,
/// paragraphs and block quotes, and its visited links. Only in a document: a toolkit's list
/// of rows is a widget, not a list to jump to.
extension ATSPIMapping {
    /// Gives `node` what `snapshot` is of a page's regions.
    static func markRegions(_ node: inout Node, of snapshot: AccessibleSnapshot) {
        node.landmark = landmark(of: snapshot)
        if snapshot.role == .list { node.listSize = snapshot.children.filter { $0.role == .listItem }.count }
        node.live = snapshot.live.flatMap { LiveSetting(rawValue: $0.trimmingWhitespace) }
        if snapshot.role == .paragraph { node.block = .paragraph }
        if snapshot.role == .blockQuote { node.block = .blockQuote }
        if node.traits.contains(.link), snapshot.states.contains(.visited) { node.traits.insert(.visited) }
    }

    /// The landmark an object is: the first landmark among its ARIA roles (Gecko names a `nav`
    /// "navigation", a named `section` "region", a named `form` "form"); a `landmark` object
    /// whose roles say none is a region. An unnamed section or form is no landmark (HTML-AAM).
    static func landmark(of snapshot: AccessibleSnapshot) -> Landmark? {
        let roles = (snapshot.xmlRoles ?? "").split(separator: " ").compactMap { Landmark(rawValue: String($0)) }
        if let first = roles.first {
            // A region or a form is a landmark only when it is named.
            if first == .region || first == .form, snapshot.role != .landmark, snapshot.name.trimmingWhitespace.isEmpty { return nil }
            return first
        }
        return snapshot.role == .landmark ? .region : nil
    }
}

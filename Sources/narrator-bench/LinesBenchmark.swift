import Foundation
import NarratorBridge
import NarratorModel

/// What browse mode's lines cost on a long page: the mirror making a page's lines
/// (`ATSPIMirror.lines`, the first line key after each read of the window that changed it),
/// beside the mirror's own read of the same window (mapping its objects to a tree document),
/// which every change pays. No desktop: the page is built as WebPageBenchmark's long list is
/// (2,500 items in 10 sections, each item a link, a button, a check box and an image in a row).
enum LinesBenchmark {
    static func run(items: Int, repeats: Int) -> [BenchResult] {
        let window = longPage(items: items)
        let id = ATSPIMirror.WindowID(application: ":1.4", path: window.path)
        var reads: [Double] = [], lines: [Double] = []
        var count = 0
        for _ in 0..<repeats {
            var mirror = ATSPIMirror()
            let t0 = Clock.now()
            _ = mirror.windowRead(id, application: "Firefox", snapshot: window)
            let t1 = Clock.now()
            let made = mirror.trees.values.first.flatMap { mirror.lines(tree: $0, page: "2") }
            let t2 = Clock.now()
            count = made?.lines.count ?? 0
            reads.append((t1 - t0) * 1000)
            lines.append((t2 - t1) * 1000)
        }
        return [
            BenchResult(
                name: "atspi.lines.10k", value: Stats.median(lines), unit: "ms", baseline: Stats.median(reads),
                baselineName: "the mirror's read of the same window (its objects mapped to a tree document)",
                note: "a page of \(items) list items in rows of four stops (about \(items * 5) objects, \(count) lines): the lines made once after a read, as the first Down or Up after it does; median of \(repeats)")
        ]
    }

    static func longPage(items: Int) -> AccessibleSnapshot {
        var next = 3
        func path() -> String {
            next += 1
            return "/org/a11y/atspi/accessible/\(next)"
        }
        let shown: ATSPIStates = [.enabled, .sensitive, .showing, .visible]
        let focusable = shown.union(.focusable)
        var children = [AccessibleSnapshot(path: path(), role: .heading, name: "Long list", extents: Rect(x: 10, y: 10, width: 400, height: 30), text: "Long list")]
        var y = 50.0
        let perSection = max(1, items / 10)
        var list: [AccessibleSnapshot] = []
        for index in 1...items {
            if (index - 1) % perSection == 0 {
                if !list.isEmpty { children.append(AccessibleSnapshot(path: path(), role: .list, children: list)) }
                list = []
                children.append(AccessibleSnapshot(path: path(), role: .heading, name: "Section \((index - 1) / perSection + 1)", extents: Rect(x: 10, y: y, width: 400, height: 24)))
                y += 30
            }
            list.append(
                AccessibleSnapshot(
                    path: path(), role: .listItem, extents: Rect(x: 10, y: y, width: 600, height: 20),
                    children: [
                        AccessibleSnapshot(path: path(), role: .link, name: "Item \(index)", states: focusable, extents: Rect(x: 20, y: y, width: 60, height: 20)),
                        AccessibleSnapshot(path: path(), role: .pushButton, name: "Buy \(index)", states: focusable, extents: Rect(x: 90, y: y, width: 60, height: 20)),
                        AccessibleSnapshot(path: path(), role: .checkBox, name: "Pick \(index)", states: focusable, extents: Rect(x: 160, y: y, width: 20, height: 20)),
                        AccessibleSnapshot(path: path(), role: .image, name: "Picture \(index)", extents: Rect(x: 190, y: y, width: 1, height: 1)),
                    ]))
            y += 24
        }
        children.append(AccessibleSnapshot(path: path(), role: .list, children: list))
        let page = AccessibleSnapshot(path: "/org/a11y/atspi/accessible/2", role: .documentWeb, name: "Long list", states: focusable, extents: Rect(x: 0, y: 0, width: 800, height: 600), children: children)
        return AccessibleSnapshot(path: "/org/a11y/atspi/accessible/1", role: .frame, name: "Long list", extents: Rect(x: 0, y: 0, width: 800, height: 600), children: [page])
    }
}

/// A point in screen or container coordinates (points, as in UIKit).
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle `[x, y, width, height]`; tree documents give frames in the parent's space.
public struct Rect: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var origin: Point { Point(x: x, y: y) }
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// Half-open containment, so that a point on the edge between two adjacent segments
    /// belongs to exactly one of them.
    public func contains(_ p: Point) -> Bool {
        p.x >= x && p.x < maxX && p.y >= y && p.y < maxY
    }

    /// Whether `other` lies entirely inside this rectangle (edges included).
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// This rectangle moved by an origin: converts a container-space frame to screen space.
    public func offset(by p: Point) -> Rect {
        Rect(x: x + p.x, y: y + p.y, width: width, height: height)
    }

    public var area: Double { width * height }
}

/// Where an element stands among its like: the second of ten thousand rows. Said as "2 of
/// 10000" after its role, as a tab's place in its tab bar is; set where the siblings are not all
/// in the tree (a list mirrored lazily, row by row) and so cannot be counted.
public struct SetPosition: Equatable, Sendable {
    /// From 1.
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }
}

/// A set of requests, as a union of boxes: each box restricts some facts (a `FactDomain` each)
/// and sets some conditions the analysis cannot read, by shape, to true or false.
///
/// The analysis uses regions as under-approximations: every request a region describes is a real
/// one with the property, though the region may leave some out. So a region may drop boxes at any
/// time (`limit` keeps the work of intersecting bounded) without ever making a warning wrong, only
/// making the analysis stay silent.
struct RequestRegion {
  /// Requests whose facts lie in every domain and whose unread conditions have the given values.
  struct Box: Equatable {
    var domains: [Int: FactDomain] = [:]
    var unread: [ResolvedExpression.Shape: Bool] = [:]

    /// The requests in both boxes, or nil when there is none.
    func intersected(with other: Box) -> Box? {
      var result = self
      for (slot, domain) in other.domains {
        let merged = result.domains[slot].map { $0.intersected(with: domain) } ?? domain
        if merged.isEmpty { return nil }
        result.domains[slot] = merged
      }
      for (shape, value) in other.unread {
        if let mine = result.unread[shape], mine != value { return nil }
        result.unread[shape] = value
      }
      return result
    }
  }

  /// The most boxes a region keeps.
  static let limit = 32

  private(set) var boxes: [Box]

  /// Every request.
  static let everything = RequestRegion(boxes: [Box()])
  /// No request.
  static let nothing = RequestRegion(boxes: [])

  /// The requests whose fact in `slot` lies in `domain`; nothing when the domain is empty.
  init(slot: Int, domain: FactDomain) {
    boxes = domain.isEmpty ? [] : [Box(domains: [slot: domain])]
  }

  /// The requests in which the condition of shape `shape` has the value `value`.
  init(unread shape: ResolvedExpression.Shape, is value: Bool) {
    boxes = [Box(unread: [shape: value])]
  }

  private init(boxes: [Box]) {
    self.boxes = boxes
  }

  var isEmpty: Bool { boxes.isEmpty }

  /// The requests in either region.
  func union(_ other: RequestRegion) -> RequestRegion {
    var result = self
    for box in other.boxes { result.insert(box) }
    return result
  }

  /// The requests in both regions; `work` counts the pairs of boxes compared.
  func intersected(with other: RequestRegion, work: inout Int) -> RequestRegion {
    var result = RequestRegion.nothing
    work += boxes.count * other.boxes.count
    for mine in boxes {
      for theirs in other.boxes {
        if let both = mine.intersected(with: theirs) { result.insert(both) }
      }
    }
    return result
  }

  /// Whether some request lies in this region and in every one of `others`: a depth-first search
  /// for one box that survives them all, trying each region's boxes in order and backing up at a
  /// dead end. `budget` is the box comparisons it may make; when they run out it answers false,
  /// which as an under-approximation is always safe.
  func meets(all others: [RequestRegion], budget: inout Int) -> Bool {
    for start in boxes {
      // path[level] is the box surviving others[..<level], and the next box of others[level] to try.
      var path: [(box: Box, next: Int)] = [(start, 0)]
      while let (box, next) = path.last {
        let level = path.count - 1
        if level == others.count { return true }
        let candidates = others[level].boxes
        var index = next
        while index < candidates.count, budget > 0 {
          budget -= 1
          if let both = box.intersected(with: candidates[index]) {
            path[level].next = index + 1
            path.append((both, 0))
            break
          }
          index += 1
        }
        if budget <= 0 { return false }
        if index == candidates.count { path.removeLast() }
      }
    }
    return false
  }

  private mutating func insert(_ box: Box) {
    guard boxes.count < Self.limit, !boxes.contains(box) else { return }
    boxes.append(box)
  }
}

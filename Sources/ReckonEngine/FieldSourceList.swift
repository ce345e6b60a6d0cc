/// Where each body field came from, in the order the builder settled them: a handful of fields,
/// so a list searched in place costs less per decision than a dictionary's hashing and table.
package struct FieldSourceList: Hashable, Sendable {
  package struct Entry: Hashable, Sendable {
    package let field: String
    package var source: FieldSource
  }

  package private(set) var entries: [Entry] = []

  package init() {}

  /// Room for `count` fields, so a body's few are added without regrowing the list.
  package init(capacity count: Int) { entries.reserveCapacity(count) }

  package var isEmpty: Bool { entries.isEmpty }

  /// The source of `field`, if it is listed.
  package subscript(field: String) -> FieldSource? {
    entries.first { $0.field == field }?.source
  }

  /// Lists where `field`, not listed yet, came from.
  package mutating func add(_ field: String, _ source: FieldSource) {
    entries.append(Entry(field: field, source: source))
  }

  /// The same sources by field name.
  package var dictionary: [String: FieldSource] {
    Dictionary(entries.map { ($0.field, $0.source) }, uniquingKeysWith: { _, last in last })
  }

  /// Equal when they list the same sources for the same fields, in whatever order.
  package static func == (left: FieldSourceList, right: FieldSourceList) -> Bool {
    left.entries.count == right.entries.count
      && left.entries.allSatisfy { right[$0.field] == $0.source }
  }

  package func hash(into hasher: inout Hasher) {
    // Order-independent, as equality is.
    hasher.combine(entries.count)
    hasher.combine(entries.reduce(0) { $0 &+ $1.hashValue })
  }
}

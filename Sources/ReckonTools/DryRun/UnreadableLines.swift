import ReckonEngine

/// Lines of a requests file left out because they cannot be read (`--skip-bad-lines`): how many,
/// and the problems of the first few by line number, for a summary to show.
public struct UnreadableLines: Hashable, Sendable {
  /// How many problems are kept to show.
  public static let kept = 20

  /// How many lines were left out.
  public private(set) var count = 0
  /// The problems of the first lines left out (at most `kept`), by line number.
  public private(set) var first: [DryRunError] = []

  /// None yet.
  public init() {}

  /// Counts one line left out for `error`.
  mutating func add(_ error: DryRunError) {
    count += 1
    keep([error])
  }

  /// Adds the lines another part of the run left out.
  mutating func merge(_ other: UnreadableLines) {
    count += other.count
    keep(other.first)
  }

  /// Bad lines are few, so sorting on each one costs nothing worth keeping a heap for; the bulk
  /// path meets them in transaction order, so the first by line are only known at the end.
  private mutating func keep(_ errors: [DryRunError]) {
    guard !errors.isEmpty else { return }
    first += errors
    first.sort { ($0.line ?? 0) < ($1.line ?? 0) }
    if first.count > Self.kept { first.removeLast(first.count - Self.kept) }
  }
}

import ReckonPolicy

/// A fact source that can answer on the calling thread, without suspending: what a bulk dry-run
/// uses for layers it cannot scan in one ordered query.
///
/// Contract: the same facts `facts(for:)` would give for `keys`, at the moment of the call.
public protocol SynchronousFactSource: FactSource {
  /// The facts this source knows about the request with these keys.
  func lookup(_ keys: RequestKeys) throws -> [String: Value]
}

extension SQLiteFactSource: SynchronousFactSource {}

extension JSONFileFactSource: SynchronousFactSource {}

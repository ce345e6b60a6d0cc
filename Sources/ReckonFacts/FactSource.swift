import ReckonPolicy

/// A source of facts about a request, such as the app's own database: the seam an embedder
/// implements to feed Reckon from its own systems.
///
/// Contract: return the facts you know for the request, by fact name, each value of the fact's
/// type in the schema; leave out what you do not know (never guess). Throw when the source
/// itself failed (unreachable, timed out): the request is then kept and retried, not decided on
/// partial facts. Implementations must be safe to call concurrently.
///
/// - A value of another type than the schema's is refused and left out (named in the
///   explanation), and the request is decided without it: it is not retried. So is a fact
///   outside `suppliableFacts`, when the source declares them.
/// - A source serving both stores' apps that found a value only the other store's words have
///   throws `FactsInOtherStoresWords` with the facts it could give: they are used, and a
///   decision that reads a fact left out waits.
/// - `customer.consented` left out means no consent, and no reply is sent. This holds too when
///   the outbox asks again just before a held or delayed reply goes: then a reply left out is
///   dropped for good, so a source that cannot tell (its store is down) must throw, not leave it
///   out.
/// - Each lookup runs with the timeout its layer was given. Do not block a thread (use async I/O,
///   or a thread of your own), and end when the task is cancelled: a lookup that ignores
///   cancellation goes on after its timeout has answered for it.
/// - `RequestKeys` carries the transaction's keys, not the environment: a source serving
///   Sandbox and Production alike tells them apart by its own data.
public protocol FactSource: Sendable {
  /// A short name recorded as the provenance of each fact this source supplies.
  var name: String { get }

  /// The facts this source knows about the request with these keys.
  func facts(for keys: RequestKeys) async throws -> [String: Value]

  /// The facts this source can ever supply, when it knows; nil means any adapter fact.
  var suppliableFacts: Set<String>? { get }
}

extension FactSource {
  /// The facts this source can ever supply, when it knows; nil (the default) means it may supply
  /// any adapter fact. The engine uses it to tell whether a failed source matters to a policy.
  public var suppliableFacts: Set<String>? { nil }
}

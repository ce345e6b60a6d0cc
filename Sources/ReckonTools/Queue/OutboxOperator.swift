import Foundation
import ReckonEngine
import ReckonState

/// What an operator does to the outbox (`reckon queue`): list entries, and approve, retry,
/// drop or edit one, each command recorded in the entry's history with who gave it.
public struct OutboxOperator {
  /// A command on one entry.
  public enum Command: Sendable {
    /// Send a held entry now, as decided.
    case approve
    /// Try a failed or pending entry again now.
    case retry
    /// Never send the entry.
    case drop
    /// Change the body's fields (`assignments` as given, for the history) and send now.
    case set(ConsumptionBodyEdit, assignments: [String])
  }

  /// A page of `list`.
  public struct Listing: Sendable {
    /// The entries, unfinished first.
    public var entries: [OutboxEntry]
    /// How many entries are in the states asked for, when the page may not hold them all.
    public var total: Int?
    /// How many entries are in other states, when none is in the one asked for.
    public var inOtherStates: Int?
    /// How many listed entries wait with their deadline passed: no sender took them.
    public var overdue: Int
    /// How many entries are in a state this Reckon does not know, when all were asked for.
    public var unreadable = 0
  }

  /// The state the outbox is in.
  public let store: any StateStore
  /// Who gives the commands, for the entries' history.
  public let user: String

  /// An operator of `store`, named `user` in what it records.
  public init(store: any StateStore, user: String = ProcessInfo.processInfo.userName) {
    self.store = store
    self.user = user
  }

  /// At most `limit` entries in `states` (all when empty) at `now`, with what a reader needs to
  /// know of those left out.
  public func list(states: [String], limit: Int, now: Date) throws(StateError) -> Listing {
    let entries = try store.entries(states: states, limit: limit)
    var listing = Listing(entries: entries, overdue: entries.count { $0.isOverdue(at: now) })
    if entries.isEmpty, !states.isEmpty {
      listing.inOtherStates = try store.entryCount()
    }
    if states.isEmpty {
      // Rows in a state this Reckon does not read are left out of the listing: counted, so
      // "the outbox is empty" never stands beside entries that are there. The known count is
      // taken second, so an entry added meanwhile is never counted as unread.
      let all = try store.entryCount()
      listing.unreadable = max(0, all - (try store.entryCount(states: OutboxState.names)))
    }
    // Such a row still took a place on the page, so the page may be full with fewer entries.
    if entries.count + listing.unreadable >= limit {
      let total = try store.entryCount(states: states)
      if total > entries.count + listing.unreadable { listing.total = total }
    }
    return listing
  }

  /// Applies `command` to entry `id` at `now` and saves it; the entry as saved.
  public func apply(_ command: Command, to id: Int64, now: Date) throws -> OutboxEntry {
    switch command {
    case .approve:
      try store.modifyEntry(id: id, now: now, note: note("approved")) {
        entry throws(OutboxCommandRefused) in try entry.approve(now: now)
      }
    case .retry:
      try store.modifyEntry(id: id, now: now, note: note("retried")) {
        entry throws(OutboxCommandRefused) in try entry.retry(now: now)
      }
    case .drop:
      try store.modifyEntry(id: id, now: now, note: note("dropped")) {
        entry throws(OutboxCommandRefused) in try entry.drop(now: now)
      }
    case .set(let edit, let assignments):
      try store.modifyEntry(
        id: id, now: now, note: note("set \(assignments.joined(separator: " "))")
      ) { entry throws(OutboxCommandRefused) in
        guard let body = edit.applied(to: entry.body) else {
          throw OutboxCommandRefused(description: "the stored body is not a JSON object")
        }
        try entry.edit(body: body, now: now)
      }
    }
  }

  /// The report of entry `id` with its tries and the decision it came from.
  public func report(_ id: Int64, now: Date) throws(StateError) -> OutboxEntryReport {
    let entry = try store.entry(id: id)
    return OutboxEntryReport(
      entry, attempts: try store.attempts(entryId: id),
      decision: try store.decision(id: entry.decisionId), now: now)
  }

  /// When the entry's app is paused after a credentials problem, says so: the command took
  /// effect, but nothing of the app goes out before the pause ends, and "pending" alone would
  /// suggest the entry is on its way. So is the store's rate limit (a 429's Retry-After), which
  /// holds the app's sends back the same way. A pause that cannot be read costs the note, not
  /// the command that took effect.
  public func holdNote(for entry: OutboxEntry, now: Date) -> String? {
    guard case .pending = entry.state else { return nil }
    if let pause = (try? store.pauses())?.first(where: { $0.app == entry.app && $0.until > now }) {
      let until = ISO8601DateFormatter().string(from: pause.until)
      return "note: sending for \(entry.app) is paused "
        + "until \(until) after a credentials problem: \(pause.reason); entry \(entry.id) goes "
        + "out then (\(SenderEvent.credentialsCheck(entry.app)))"
    }
    if let until = (try? store.throttles(now: now))?[entry.app] {
      return "note: \(SenderEvent.storeName(entry.app)) rate-limited \(entry.app) until "
        + "\(ISO8601DateFormatter().string(from: until)) (its Retry-After); entry \(entry.id) "
        + "goes out then"
    }
    return nil
  }

  /// What the entry's history records of a command: what was done, with `reckon queue`, by whom.
  private func note(_ done: String) -> String {
    "\(done) with reckon queue by \(user)"
  }
}

import Foundation
import ReckonAppStore
import ReckonState

extension OutboxEntry {
  /// `reckon queue approve`: a held entry goes out now, as decided.
  public mutating func approve(now: Date) throws(OutboxCommandRefused) {
    guard case .held = state else {
      throw refused("only held entries can be approved; it is \(state.name)")
    }
    guard now < deadline else { throw deadlinePassed() }
    state = .pending(notBefore: now)
  }

  /// `reckon queue set`: replaces the body of a held, pending or failed entry with one that
  /// validates, and sends it now. A failed one is how a body Apple refused (400) is put right:
  /// Apple takes an updated reply within the window.
  public mutating func edit(body newBody: Data, now: Date) throws(OutboxCommandRefused) {
    if let refusal = editRefusal(now: now) { throw refusal }
    do {
      _ = try ValidatedConsumptionBody(
        validating: newBody, context: ConsumptionValidationContext(context))
    } catch {
      throw refused(error.description)
    }
    body = newBody
    keepFailedTry()
    state = .pending(notBefore: now)
  }

  /// Why `edit` refuses any body at `now` (the entry's state, its deadline, its store), so a
  /// command can say so before it reads the fields it was given; nil when a valid body would do.
  public func editRefusal(now: Date) -> OutboxCommandRefused? {
    switch state {
    case .held, .pending, .failed: break
    default:
      return refused("only held, pending or failed entries can be changed; it is \(state.name)")
    }
    guard now < deadline else { return deadlinePassed() }
    // Google records only the first answer: a changed one after an uncertain send would be
    // ignored while looking sent, and the fields are not Apple's anyway.
    guard !isGooglePlay else {
      return refused("a Google Play answer cannot be changed; approve it as decided, or drop it")
    }
    return nil
  }

  /// `reckon queue retry`: a failed or pending entry is tried again now (before its deadline).
  public mutating func retry(now: Date) throws(OutboxCommandRefused) {
    guard now < deadline else { throw deadlinePassed() }
    switch state {
    case .failed, .pending:
      keepFailedTry()
      state = .pending(notBefore: now)
    case .held:
      // A held entry waits for a person's review; retry must not become a way round it.
      throw refused(
        "it is held for review; retry does not release it. Send it as decided with "
          + "'reckon queue approve \(id)', "
          + (isGooglePlay
            ? "or drop it ('reckon queue drop \(id)'): a Google Play answer cannot be changed"
            : "or change it and send with 'reckon queue set \(id) FIELD=VALUE ...'"))
    default:
      throw refused("only failed or pending entries can be retried; it is \(state.name)")
    }
  }

  /// `reckon queue drop`: the entry will never be sent.
  public mutating func drop(now: Date) throws(OutboxCommandRefused) {
    switch state {
    case .held, .pending, .failed:
      keepFailedTry()
      state = .dropped(at: now)
    default:
      throw refused("only held, pending or failed entries can be dropped; it is \(state.name)")
    }
  }

  /// Before an operator moves a failed entry on: the answer that failed it stays a failed try,
  /// which `failedTries` counts only while the entry is failed.
  private mutating func keepFailedTry() {
    if case .failed(_, let reason) = state, reason.hasPrefix("HTTP 4") { attempts += 1 }
  }

  private func deadlinePassed() -> OutboxCommandRefused {
    refused(
      "its deadline \(deadline.formatted(.iso8601)) has passed; \(storeName) no longer expects a reply"
    )
  }

  private func refused(_ why: String) -> OutboxCommandRefused {
    OutboxCommandRefused(description: "outbox entry \(id): \(why)")
  }
}

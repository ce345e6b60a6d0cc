import Foundation
import ReckonAppStore
import ReckonGooglePlay

/// What the I/O layer must do after an event. Every action except `none` and `wait` also means
/// "persist the entry"; `send` means persist *first*, then send.
public enum OutboxAction: Hashable, Sendable {
  /// Nothing to do.
  case none
  /// Come back at this time.
  case wait(until: Date)
  /// Persist the `sending` state, then send exactly these bytes.
  case send(ValidatedConsumptionBody, to: AppStoreApp)
  /// Persist the `sending` state, then send exactly this answer to Google Play, once.
  case sendAnswer(ValidatedReviewRefund, packageName: String, orderId: String)
  /// Persist: the store accepted it.
  case recordSent
  /// Persist, and report loudly: the deadline passed unsent.
  case expire
  /// Persist: refused for good, with the reason.
  case fail(reason: String)
  /// Persist: try again at this time.
  case retry(at: Date)
  /// Persist, and hold every send for the app until this time (429 `Retry-After`).
  case throttleApp(until: Date)
  /// Persist without counting an attempt, and pause the app's sending: a credentials problem.
  case pauseApp(reason: String)
}

import Foundation
import ReckonEngine
import ReckonState

extension StoredRequestSpan {
  /// Why the window `since..<until` (as the user wrote them) found nothing, e.g. `no request
  /// received at or after 2030-01-01 (the database has 2,000, received from … to …)`; `kind`
  /// names what was looked for (`request`, `decided request`).
  public func emptyWindow(since: String?, until: String?, kind: String) -> String {
    var window: [String] = []
    if let since { window.append("at or after \(since)") }
    if let until { window.append("before \(until)") }
    var note = "no \(kind) received \(window.joined(separator: " and "))"
    if let first, let last {
      note +=
        " (the database has \(DryRunText.n(count)) \(count == 1 ? kind : kind + "s"), received from \(DryRunRows.timestamp(first)) "
        + "to \(DryRunRows.timestamp(last)))"
    }
    return note
  }
}

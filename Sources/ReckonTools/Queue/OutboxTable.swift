import Foundation
import ReckonState
import ReckonSupport

/// The text table of `reckon queue list`.
public enum OutboxTable {
  /// The table of `entries` at `now` (overdue ones marked), or a sentence for none.
  public static func render(_ entries: [OutboxEntry], now: Date) -> String {
    guard !entries.isEmpty else { return "the outbox is empty" }
    let formatter = ISO8601DateFormatter()
    // ENV tells a transaction's Production and Sandbox entries apart.
    var lines = ["ID\tSTATE\tTRANSACTION\tAPP\tENV\tDEADLINE\tFAILED TRIES\tLAST ERROR"]
    for entry in entries {
      lines.append(
        // A transaction id, bundle id or Apple's error message is anyone's text: a tab or an
        // escape in it must not forge a column or reach the terminal.
        "\(entry.id)\t\(entry.state.name)\(entry.isOverdue(at: now) ? ", overdue" : "")\t\(cell(entry.transactionId))\t\(cell(entry.app.bundleId))\t\(entry.app.environment)\t\(formatter.string(from: entry.deadline))\t\(entry.failedTries)\t\(cell(entry.lastError ?? ""))"
      )
    }
    return lines.joined(separator: "\n")
  }

  private static func cell(_ text: String) -> String {
    TerminalSafeText.shown(text, oneLine: true)
  }
}

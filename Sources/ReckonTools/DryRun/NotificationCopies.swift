import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonGooglePlay
import ReckonState

/// The requests of a dry-run that `reckon serve` would not have decided: another copy of a
/// notification (the same `notificationUUID`: Apple retried it) and a new notification for a
/// transaction whose earlier request was still open (Apple sent the same refund request again).
/// Serve records both and answers them with the first decision, so a dry-run leaves them out.
/// A request after Apple's verdict on the open one (`StoreVerdicts`) is a new one.
struct NotificationCopies {
  /// Apple's verdicts read beside the requests.
  var verdicts = StoreVerdicts()
  /// Rows left out as a notification already seen.
  private(set) var duplicates = 0
  /// Rows left out as a repeat of a request still open.
  private(set) var repeats = 0

  /// Removes the copies from `rows`, counting them; the rows keep their order.
  mutating func remove(from rows: inout [DryRunRow]) {
    var first: [PackedIdentifier: Int] = Dictionary(minimumCapacity: rows.count)
    var others: [Int: [Int]] = [:]
    for index in rows.indices where !rows[index].packedTransactionId.isEmpty {
      // One hash lookup for the usual new transaction; a second only for a transaction seen.
      if let head = first.updateValue(index, forKey: rows[index].packedTransactionId) {
        first[rows[index].packedTransactionId] = head
        others[head, default: []].append(index)
      }
    }
    guard !others.isEmpty else { return }
    var dropped = Set<Int>()
    for (head, rest) in others { dropped.formUnion(copies(in: [head] + rest, of: rows)) }
    rows = rows.indices.filter { !dropped.contains($0) }.map { rows[$0] }
  }

  /// The copies among one transaction's rows, taken in the order they were received; serve
  /// keeps one open request per environment, and a row without a UUID copies nothing.
  private mutating func copies(in group: [Int], of rows: [DryRunRow]) -> [Int] {
    let ordered = group.sorted { (rows[$0].receivedAt, $0) < (rows[$1].receivedAt, $1) }
    var seen = Set<PackedIdentifier>()
    // Per environment, when Apple first sent the request still open, and its deadline.
    var open: [AppStoreEnvironment?: (sent: Date, deadline: Date)] = [:]
    var found: [Int] = []
    for index in ordered {
      let row = rows[index]
      if !row.packedNotificationUUID.isEmpty, !seen.insert(row.packedNotificationUUID).inserted {
        duplicates += 1
        found.append(index)
        continue
      }
      // As serve decides it: received before the open request's deadline, which counts from
      // Apple's first send, and sent by Apple with no verdict of its on the open one between.
      let sent = NotificationCopies.firstSent(row)
      if let request = open[row.environment], row.receivedAt < request.deadline,
        !verdicts.closes(row.transactionId, environment(row), from: request.sent, to: sent)
      {
        repeats += 1
        found.append(index)
        continue
      }
      open[row.environment] = (sent, row.deadline)
    }
    return found
  }

  /// When Apple first sent the row's notification: its deadline less the reply window, as the
  /// deadline counts from the earlier of Apple's signature and its receipt.
  private static func firstSent(_ row: DryRunRow) -> Date {
    guard row.store == .appStore else {
      return row.deadline.addingTimeInterval(-GooglePlayStore.replyWindow)
    }
    return row.deadline.addingTimeInterval(
      -(row.environment ?? .production).consumptionReplyWindow)
  }

  /// The environment the state records the row's verdicts under.
  private func environment(_ row: DryRunRow) -> String? {
    row.store == .googlePlay ? GooglePlayStore.environment : row.environment?.rawValue
  }
}

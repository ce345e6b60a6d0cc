import Foundation

/// How one fact source's lookups have been going, for `/healthz`: a source is hung while its
/// latest lookup ran out of time, or while a lookup that ran out of time has not returned.
/// Lookups that failed quickly are not a hang: the source answers, with an error.
final class LookupWatch: @unchecked Sendable {
  /// One lookup, from when it starts until it has both returned and been answered for.
  final class Ticket: @unchecked Sendable {
    fileprivate var expired = false
    fileprivate var returned = false
  }

  private let lock = NSLock()
  private var latestTimedOut = false
  private var latestFailed = false
  private var expiredRunning = 0

  /// Whether the source is hung now.
  var isHung: Bool { lock.withLock { latestTimedOut || expiredRunning > 0 } }

  /// Whether the source's latest lookup answered in time with an error: a file it reads is
  /// missing or refused, its database cannot be opened.
  var isFailing: Bool { lock.withLock { latestFailed } }

  /// Notes that the lookup's work returned, early or late.
  func returned(_ ticket: Ticket) {
    lock.withLock {
      ticket.returned = true
      if ticket.expired { expiredRunning -= 1 }
    }
  }

  /// Notes that the lookup was answered for by its timeout.
  func expired(_ ticket: Ticket) {
    lock.withLock {
      latestTimedOut = true
      guard !ticket.returned, !ticket.expired else { return }
      ticket.expired = true
      expiredRunning += 1
    }
  }

  /// Notes that the lookup answered with facts within its time.
  func answered() {
    lock.withLock {
      latestTimedOut = false
      latestFailed = false
    }
  }

  /// Notes that the lookup answered with an error within its time.
  func failed() {
    lock.withLock {
      latestTimedOut = false
      latestFailed = true
    }
  }
}

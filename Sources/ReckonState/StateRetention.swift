import Foundation

/// How long every backend keeps a notification's records at the least, whatever a prune asks.
public enum StateRetention {
  /// How recent a cutoff may be: Apple retries a notification it got no 200 for five times, up
  /// to about six and a half days after the first try (1, 12, 24, 48 and 72 hours apart), and a
  /// retry of one pruned by then would be taken for a new notification and decided again.
  public static let shortest: TimeInterval = 7 * 86_400

  /// `shortest` in whole days, as `reckon prune --older-than` and `state.keepDays` take it.
  public static let shortestDays = Int((shortest / 86_400).rounded(.up))
}

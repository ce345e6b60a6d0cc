import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonPolicy
import ReckonState

/// What a dry-run produced: a row per request decided (in the source's order), what it left out,
/// and whether it was stopped before the end.
public struct DryRunResult: Sendable {
  /// One row per request, in the order of the source.
  public var rows: [DryRunRow] { didSet { tally = nil } }
  /// The rows' counts when the dry-run counted them as it made them; nil once they change.
  var tally: DryRunTally?
  /// Notifications in the source that are not CONSUMPTION_REQUESTs, left out.
  public var ignored: Int
  /// CONSUMPTION_REQUESTs for apps the configuration does not list (another bundle id, or a
  /// listed app in another environment), left out because `reckon serve` refuses them.
  public var otherApps = 0
  /// Lines that could not be read, left out on request (`--skip-bad-lines`).
  public var unreadable = UnreadableLines()
  /// Copies of a notification already in the source (the same `notificationUUID`), left out.
  public var duplicates = 0
  /// Repeats of a request still open for the same transaction, left out as `reckon serve`
  /// answers them with the first request's decision.
  public var repeats = 0
  /// How many requests the source held (when stopped early, more than `rows`). A requests file
  /// stopped early counts its unread lines as requests, so this is then at most what it holds.
  public var total: Int
  /// For a requests file stopped early: how many of its `lines` were read; nil otherwise.
  public var linesRead: Int?
  /// For a requests file stopped early: how many lines it has; nil otherwise.
  public var lines: Int?
  /// Per fact source, why its `bulkQuery` could not be checked against its per-request queries
  /// (a lookup failed: `reckon serve` would fail the same way); empty when every check ran.
  public var uncheckedBulkQueries: [String: String] = [:]
  /// The indices of the requests file's Google Play lines, which the App Store readers leave
  /// to `GooglePlayLines`; their rows join through `addGooglePlay`.
  public var googlePlayLines: [Int] = []
  /// With `--store`: the other store's requests (and a requests file's Google Play lines)
  /// left out; nil when both stores' are decided.
  public var otherStore: Int?
  /// Whether the run was stopped (Ctrl-C) before the end.
  public var stopped: Bool
  /// The policy's rule names, by index.
  public var ruleNames: [String]
  /// The `--against` policy's rule names, by index.
  public var againstRuleNames: [String]?
  /// The policy's name.
  public var policyName: String
  /// The `--against` policy's name.
  public var againstName: String?
  /// The policy's version header, if it has one.
  public var policyVersion: String?
  /// SHA-256 of the policy's text (hex), as `reckon serve` records it with each decision.
  public var policySHA256 = ""
  /// The `--against` policy's version and SHA-256.
  public var against: (version: String?, sha256: String)?
  /// The store's verdicts the run read beside the requests (a state's outcomes), for the
  /// store's outcome of each request; nil when it read none.
  public var storeVerdicts: StoreVerdicts?

  /// Leaves out the rows `reckon serve` would not have decided (see `NotificationCopies`), with
  /// Apple's `verdicts` read beside them.
  mutating func removeCopies(verdicts: StoreVerdicts) {
    storeVerdicts = verdicts
    var copies = NotificationCopies(verdicts: verdicts)
    copies.remove(from: &rows)
    duplicates = copies.duplicates
    repeats = copies.repeats
    total -= duplicates + repeats
  }

  /// Adds the rows of Google Play `reviews` after the App Store rows (each part in its own
  /// source order), with what was left out of them; copies and repeats among them are left out
  /// as among Apple's, with Google's voided purchases closing a review.
  public mutating func addGooglePlay(_ rows: [DryRunRow], of reviews: GooglePlayLines) {
    var added = DryRunResult(
      rows: rows, ignored: reviews.ignored, total: reviews.reviews.count,
      stopped: rows.count < reviews.reviews.count, ruleNames: ruleNames,
      againstRuleNames: againstRuleNames, policyName: policyName, againstName: againstName)
    added.removeCopies(verdicts: reviews.verdicts)
    self.rows += added.rows
    ignored += added.ignored
    otherApps += reviews.otherApps
    unreadable.merge(reviews.unreadable)
    duplicates += added.duplicates
    repeats += added.repeats
    total += added.total
    stopped = stopped || added.stopped
    googlePlayLines = []
  }

  private init(
    rows: [DryRunRow], ignored: Int, total: Int, stopped: Bool, ruleNames: [String],
    againstRuleNames: [String]?, policyName: String, againstName: String?
  ) {
    self.rows = rows
    self.ignored = ignored
    self.total = total
    self.stopped = stopped
    self.ruleNames = ruleNames
    self.againstRuleNames = againstRuleNames
    self.policyName = policyName
    self.againstName = againstName
  }

  /// Whether some row is a Google Play review's: the rows then say each one's store.
  public var hasGooglePlayRows: Bool { rows.contains { $0.store == .googlePlay } }

  /// A result with rows decided by `policy` (and `against`).
  public init(
    rows: [DryRunRow], ignored: Int, total: Int, stopped: Bool, policy: CompiledPolicy,
    against: CompiledPolicy?
  ) {
    self.rows = rows
    self.ignored = ignored
    self.total = total
    self.stopped = stopped
    ruleNames = policy.checked.rules.map(\.name)
    againstRuleNames = against.map { $0.checked.rules.map(\.name) }
    policyName = policy.checked.name
    againstName = against?.checked.name
    policyVersion = policy.checked.version
    policySHA256 = SHA256Digest.hex(Data(policy.checked.source.text.utf8))
    self.against = against.map {
      ($0.checked.version, SHA256Digest.hex(Data($0.checked.source.text.utf8)))
    }
  }

  /// The name of the policy's rule at `index`, `otherwise` for nil.
  public func ruleName(_ index: Int?) -> String {
    index.map { ruleNames[$0] } ?? "otherwise"
  }

  /// The name of the `--against` policy's rule at `index`, `otherwise` for nil.
  public func againstRuleName(_ index: Int?) -> String {
    index.map { againstRuleNames?[$0] ?? "#\($0)" } ?? "otherwise"
  }
}

/// The decision of one policy on one request's facts, without trace: the same steps as
/// `Decider.decide`, returning only the verdict.
enum VerdictMaker {
  static func verdict(
    _ policy: CompiledPolicy, _ values: FactValues, _ context: ConsumptionValidationContext,
    _ slots: BodyFactSlots, sharing reasons: inout SharedSkipReasons
  ) -> DryRunVerdict {
    let decided = policy.evaluate(values)
    var builder = BodyBuilder(
      facts: values, decided: decided, rule: policy.ruleName(decided.rule), context: context,
      slots: slots)
    builder.tracksSources = false
    let outcome = builder.build(policy: policy)
    return DryRunVerdict(
      action: outcome.action, body: outcome.body, ruleIndex: decided.rule, sharing: &reasons)
  }
}

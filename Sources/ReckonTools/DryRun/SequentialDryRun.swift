import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonState

/// Decides past requests one at a time through the same steps as the live pipeline: facts as
/// recorded at the time, or gathered now from the configured sources; then `Decider.decide`
/// with the request's own receive time as `now`.
public struct SequentialDryRun: Sendable {
  /// Where the facts come from.
  public enum Facts: Sendable {
    /// The facts stored with each request's decision; requests never decided are left out.
    case recorded
    /// Gathered now, through the configured sources.
    case current(FactGatherer)
  }

  /// The policy to try.
  public let policy: CompiledPolicy
  /// The policy to compare with, if any.
  public let against: CompiledPolicy?
  /// The schema both were checked against.
  public let schema: FactSchema
  /// Where the facts come from.
  public let facts: Facts
  /// Decides the Google Play reviews among the entries; nil when there are none.
  public var googlePlay: GooglePlayDryRun?

  /// Creates a dry-run.
  public init(policy: CompiledPolicy, against: CompiledPolicy?, schema: FactSchema, facts: Facts) {
    self.policy = policy
    self.against = against
    self.schema = schema
    self.facts = facts
  }

  /// Decides `requests` in order; `ignored` other notifications, `otherApps` requests for
  /// unlisted apps and `unreadable` lines were left out before; `verdicts` are Apple's verdicts
  /// read beside the requests, which tell a customer asking again from a repeat; `control`
  /// reports progress and can stop the run.
  public func run(
    _ requests: [PastRequest], ignored: Int = 0, otherApps: Int = 0,
    unreadable: UnreadableLines = UnreadableLines(), verdicts: StoreVerdicts = StoreVerdicts(),
    control: DryRunControl = DryRunControl()
  ) async -> DryRunResult {
    await run(
      entries: requests.map(PastEntry.appStore), ignored: ignored, otherApps: otherApps,
      unreadable: unreadable, verdicts: verdicts, control: control)
  }

  /// Decides `entries` of either store in order, as `run(_:)` does; a Google Play review is
  /// decided by `googlePlay`, and without it is left undecided, saying why.
  public func run(
    entries: [PastEntry], ignored: Int = 0, otherApps: Int = 0,
    unreadable: UnreadableLines = UnreadableLines(), verdicts: StoreVerdicts = StoreVerdicts(),
    control: DryRunControl = DryRunControl()
  ) async -> DryRunResult {
    control.expect(entries.count)
    let needed = FactGathering.factsRead(by: policy).union(
      against.map(FactGathering.factsRead(by:)) ?? [])
    var rows: [DryRunRow] = []
    rows.reserveCapacity(entries.count)
    for entry in entries {
      if control.isStopped { break }
      switch entry {
      case .appStore(let past): rows.append(await decide(past, needed: needed))
      case .googlePlay(let past):
        guard let googlePlay else {
          rows.append(
            DryRunRow(
              review: past.review, messageId: past.messageId, verdict: nil, against: nil,
              problem: "no policy was checked in Google Play's words"))
          break
        }
        rows.append(await googlePlay.decide(past))
      }
      control.advance(by: 1)
    }
    var result = DryRunResult(
      rows: rows, ignored: ignored, total: entries.count, stopped: rows.count < entries.count,
      policy: policy, against: against)
    result.otherApps = otherApps
    result.unreadable = unreadable
    result.removeCopies(verdicts: verdicts)
    return result
  }

  /// The row for one request.
  public func decide(_ past: PastRequest, needed: Set<String>) async -> DryRunRow {
    let request = past.request
    let gathered: GatheredFacts
    switch facts {
    case .recorded:
      guard let recorded = past.recordedFacts else {
        return DryRunRow(
          request: request, verdict: nil, against: nil,
          problem:
            "no facts were recorded (imported from Apple's history, or never decided); "
            + "use --facts current to decide it on today's facts")
      }
      gathered = recorded
    case .current(let gatherer):
      switch await gatherer.gather(request, reading: needed) {
      case .ready(let facts): gathered = facts
      case .retry(let failure):
        return DryRunRow(request: request, verdict: nil, against: nil, problem: failure.description)
      }
    }
    let verdict = DryRunVerdict(
      Decider(policy: policy, schema: schema).decide(request, facts: gathered))
    let other = against.map {
      DryRunVerdict(Decider(policy: $0, schema: schema).decide(request, facts: gathered))
    }
    return DryRunRow(
      request: request, verdict: verdict, against: other, factsFound: gathered.fromFactSources)
  }
}

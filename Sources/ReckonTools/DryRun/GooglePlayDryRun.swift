import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// Decides past Google Play reviews one at a time through the live pipeline's steps: facts as
/// recorded at the time, or gathered now (with the usage events the sources list); then
/// `Decider.decide` with the review's own receive time as `now`.
public struct GooglePlayDryRun: Sendable {
  /// The policy to try, checked in Google Play's words.
  public let policy: CompiledPolicy
  /// The policy to compare with, checked in Google Play's words, if any.
  public let against: CompiledPolicy?
  /// Google Play's schema, which both were checked against.
  public let schema: FactSchema
  /// Where the facts come from.
  public let facts: SequentialDryRun.Facts
  private let needed: Set<String>

  /// Creates a dry-run of Google Play reviews.
  public init(
    policy: CompiledPolicy, against: CompiledPolicy?, schema: FactSchema,
    facts: SequentialDryRun.Facts
  ) {
    self.policy = policy
    self.against = against
    self.schema = schema
    self.facts = facts
    needed = FactGathering.factsRead(by: policy).union(
      against.map(FactGathering.factsRead(by:)) ?? [])
  }

  /// Decides `reviews` in order until `control` stops the run.
  public func rows(_ reviews: [PastReview], control: DryRunControl) async -> [DryRunRow] {
    var rows: [DryRunRow] = []
    for past in reviews {
      if control.isStopped { break }
      rows.append(await decide(past))
    }
    return rows
  }

  /// The row for one review.
  public func decide(_ past: PastReview) async -> DryRunRow {
    let review = past.review
    let gathered: GatheredFacts
    switch facts {
    case .recorded:
      guard let recorded = past.recordedFacts else {
        return DryRunRow(
          review: review, messageId: past.messageId, verdict: nil, against: nil,
          problem:
            "no facts were recorded (never decided); use --facts current to decide it on "
            + "today's facts")
      }
      gathered = recorded
    case .current(let gatherer):
      switch await gatherer.gather(review, reading: needed) {
      case .ready(let facts): gathered = facts
      case .retry(let failure):
        return DryRunRow(
          review: review, messageId: past.messageId, verdict: nil, against: nil,
          problem: failure.description)
      }
    }
    let verdict = DryRunVerdict(
      Decider(policy: policy, schema: schema).decide(review, facts: gathered))
    let other = against.map {
      DryRunVerdict(Decider(policy: $0, schema: schema).decide(review, facts: gathered))
    }
    return DryRunRow(
      review: review, messageId: past.messageId, verdict: verdict, against: other,
      factsFound: gathered.fromFactSources)
  }
}

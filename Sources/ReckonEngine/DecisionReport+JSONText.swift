import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonSupport

extension DecisionReport {
  /// The report, and its facts alone, as compact JSON with sorted keys, as `JSONEncoder` with
  /// `.sortedKeys` writes them: written by hand because both are stored with every decision the
  /// webhook makes, and the facts once, cut from the report, where they are the same text.
  func compactJSONAndFacts() -> (report: Data, facts: Data) {
    let (writer, facts) = compactText()
    return (writer.data, writer.data(in: facts))
  }

  /// The report's text, and where in it the facts are.
  private func compactText() -> (writer: JSONTextWriter, facts: Range<Int>) {
    var writer = JSONTextWriter(capacity: 2_048)
    writer.beginObject()
    writer.field("action", action)
    switch body {
    case .appStore(let body)?:
      writer.key("body")
      Self.write(body, into: &writer)
    case .googlePlay(let answer)?:
      writer.key("body")
      Self.write(answer, into: &writer)
    case nil: break
    }
    if let explanation {
      writer.key("explanation")
      Self.write(explanation, into: &writer)
    }
    writer.key("facts")
    let factsStart = writer.count
    Self.write(facts, into: &writer)
    let factsRange = factsStart..<writer.count
    writer.field("fieldSources", fieldSources)
    writer.field("missingFacts", missingFacts)
    writer.field("otherwise", otherwise)
    writer.field("policy", policy)
    writer.field("policyVersion", policyVersion)
    writer.field("reason", reason)
    writer.field("refusedFacts", refusedFacts)
    writer.key("rule")
    if let name = rule.name { writer.string(name) } else { writer.null() }
    if let trace {
      writer.key("trace")
      writer.beginArray()
      for attempt in trace { Self.write(attempt, into: &writer) }
      writer.endArray()
    }
    writer.field("unavailableSources", unavailableSources)
    writer.field("violations", violations)
    writer.endObject()
    return (writer, factsRange)
  }

  private static func write(_ facts: [Fact], into writer: inout JSONTextWriter) {
    writer.beginArray()
    for fact in facts {
      writer.beginObject()
      writer.field("name", fact.name)
      writer.field("source", fact.source)
      writer.field("value", fact.value)
      writer.endObject()
    }
    writer.endArray()
  }

  /// `body` as `ConsumptionRequest.jsonData()` writes it (sorted keys, slashes unescaped), without
  /// the generic encoder.
  package static func bodyJSON(_ body: ConsumptionRequest) -> Data {
    var writer = JSONTextWriter(escapesSlashes: false, capacity: 160)
    write(body, into: &writer)
    return writer.data
  }

  /// `answer` as Google receives it (sorted keys, absent fields left out), as
  /// `ValidatedReviewRefund` writes it.
  package static func answerJSON(_ answer: ReviewRefundRequest) -> Data {
    var writer = JSONTextWriter(escapesSlashes: false, capacity: 256)
    write(answer, into: &writer)
    return writer.data
  }

  private static func write(_ answer: ReviewRefundRequest, into writer: inout JSONTextWriter) {
    writer.beginObject()
    writer.field("consumptionPercentageMilliunits", answer.consumptionPercentageMilliunits)
    if let events = answer.consumptionUsageEvents {
      writer.key("consumptionUsageEvents")
      writer.beginArray()
      for event in events { write(event, into: &writer) }
      writer.endArray()
    }
    writer.field("pendingRefundToken", answer.pendingRefundToken)
    writer.field("refundPreference", answer.refundPreference.rawValue)
    writer.field("sampleContentProvided", answer.sampleContentProvided)
    writer.endObject()
  }

  private static func write(_ event: ConsumptionUsageEvent, into writer: inout JSONTextWriter) {
    writer.beginObject()
    writer.field("consumptionItemDescription", event.consumptionItemDescription)
    writer.field("consumptionTime", event.consumptionTime)
    writer.field("ipAddress", event.ipAddress)
    if let location = event.location {
      writer.key("location")
      writer.beginObject()
      writer.field("administrativeArea", location.administrativeArea)
      writer.field("locality", location.locality)
      writer.field("regionCode", location.regionCode)
      writer.field("sublocality", location.sublocality)
      writer.endObject()
    }
    writer.field("obfuscatedAccountId", event.obfuscatedAccountId)
    writer.field("obfuscatedProfileId", event.obfuscatedProfileId)
    writer.endObject()
  }

  private static func write(_ body: ConsumptionRequest, into writer: inout JSONTextWriter) {
    writer.beginObject()
    writer.field("consumptionPercentage", body.consumptionPercentage)
    writer.field("customerConsented", body.customerConsented)
    writer.field("deliveryStatus", body.deliveryStatus.rawValue)
    writer.field("refundPreference", body.refundPreference?.rawValue)
    writer.field("sampleContentProvided", body.sampleContentProvided)
    writer.endObject()
  }

  private static func write(_ attempt: Attempt, into writer: inout JSONTextWriter) {
    writer.beginObject()
    writer.key("conditions")
    writer.beginArray()
    for condition in attempt.conditions {
      writer.beginObject()
      writer.field("column", condition.column)
      writer.field("line", condition.line)
      writer.field("text", condition.text)
      writer.key("value")
      if let value = condition.value { writer.string(value) } else { writer.null() }
      writer.endObject()
    }
    writer.endArray()
    writer.key("result")
    if let result = attempt.result { writer.bool(result) } else { writer.null() }
    writer.field("rule", attempt.rule)
    writer.endObject()
  }

  private static func write(_ explanation: DecisionExplanation, into writer: inout JSONTextWriter) {
    writer.beginObject()
    write(explanation.because, as: "because", into: &writer)
    writer.field("decidedBy", explanation.decidedBy)
    writer.key("earlierRules")
    writer.beginArray()
    for miss in explanation.earlierRules {
      writer.beginObject()
      if let failed = miss.failed {
        writer.key("failed")
        write(failed, into: &writer)
      }
      writer.field("line", miss.line)
      writer.field("rule", miss.rule)
      writer.endObject()
    }
    writer.endArray()
    if let followed = explanation.followed {
      writer.key("followed")
      writer.beginObject()
      writer.field("fact", followed.fact)
      writer.field("value", followed.value)
      writer.endObject()
    }
    if let hold = explanation.hold {
      writer.key("hold")
      writer.beginObject()
      write(hold.because, as: "because", into: &writer)
      writer.field("line", hold.line)
      writer.field("name", hold.name)
      writer.endObject()
    }
    writer.field("line", explanation.line)
    writer.field("missingFacts", explanation.missingFacts)
    writer.endObject()
  }

  private static func write(
    _ conditions: [DecisionExplanation.Condition], as key: String,
    into writer: inout JSONTextWriter
  ) {
    writer.key(key)
    writer.beginArray()
    for condition in conditions { write(condition, into: &writer) }
    writer.endArray()
  }

  private static func write(
    _ condition: DecisionExplanation.Condition, into writer: inout JSONTextWriter
  ) {
    writer.beginObject()
    writer.field("detail", condition.detail)
    writer.field("line", condition.line)
    writer.field("text", condition.text)
    writer.field("value", condition.value)
    writer.endObject()
  }
}

import Foundation
import ReckonEngine
import ReckonFacts

extension GoLiveDoctor {
  /// The fact the consent gate reads; Apple takes consumption information only with it.
  static let consentFact = "customer.consented"

  /// Consent has a source, then each fact source answers one lookup within its timeout, opened
  /// as `reckon serve` opens it (a file missing now is a failure here, not a warning: Apple's
  /// requests would wait on it).
  func factChecks(_ configuration: ReckonConfiguration) async -> [DoctorCheck] {
    // Read as the service reads them: by each configured store's schema, which may refuse what
    // another's takes. The lookups below go through the first.
    var setups: [FactSourceSetup] = []
    for store in configuration.stores {
      do {
        setups.append(
          try FactSourceSetup(
            configuration.factSources, unavailable: .openLater,
            currencies: configuration.currencies, sourcesStore: store,
            alongside: configuration.stores))
      } catch {
        let reading = configuration.stores.count > 1 ? " (read for \(store.name))" : ""
        return [
          .skip("consent", "the fact sources are configured wrongly"),
          .fail("fact sources", error.description + reading),
        ]
      }
    }
    let setup = setups[0]
    var checks = [consentCheck(setup.layers)]
    guard !setup.layers.isEmpty else {
      return checks + [.skip("fact sources", "none configured in factSources")]
    }
    let id = options.transactionId ?? Self.sampleTransactionId
    let keys = RequestKeys(
      transactionId: id, originalTransactionId: id, appAccountToken: nil, productId: nil,
      bundleId: configuration.apps.first?.bundleId)
    for layer in setup.layers {
      checks.append(await lookupCheck(layer, keys: keys))
    }
    return checks
  }

  /// Which sources can give `customer.consented`: without it no reply is ever sent, so a setup
  /// where none can would answer nothing, silently, for every request.
  private func consentCheck(_ layers: [LayeredFactSource.Layer]) -> DoctorCheck {
    let sure = layers.filter { $0.source.suppliableFacts?.contains(Self.consentFact) == true }
      .map(\.source.name)
    let maybe = layers.filter { $0.source.suppliableFacts == nil }.map(\.source.name)
    if !sure.isEmpty {
      return .ok(
        "consent",
        "\(Self.consentFact) comes from \(Self.names(sure)) (its queries select it); a request "
          + "whose customer has not consented gets no reply")
    }
    if !maybe.isEmpty {
      return .ok(
        "consent",
        "\(Self.consentFact) can come only from \(Self.names(maybe)), which may give any fact: "
          + "make sure each customer's entry has it, or their requests get no reply")
    }
    return .fail(
      "consent",
      "no fact source gives \(Self.consentFact), so no reply would ever be sent: Apple takes "
        + "consumption information only with the customer's consent (docs/going-live.md)")
  }

  private func lookupCheck(_ layer: LayeredFactSource.Layer, keys: RequestKeys) async
    -> DoctorCheck
  {
    let name = "fact source \(layer.source.name)"
    let results = await LayeredFactSource(name: layer.source.name, layers: [layer])
      .collect(for: keys)
    guard let result = results.first?.result else {
      return .fail(name, "gave no answer")
    }
    let transaction = keys.transactionId ?? Self.sampleTransactionId
    switch result {
    case .failure(let failure):
      return .fail(name, "a lookup of transaction \(transaction): \(failure.description)")
    case .success(let facts) where facts.isEmpty:
      let expected =
        options.transactionId == nil ? " (none expected for this made-up id)" : ""
      return .ok(
        name, "answered a lookup of transaction \(transaction): no facts\(expected)")
    case .success(let facts):
      return .ok(
        name,
        "answered a lookup of transaction \(transaction): \(facts.count) "
          + "fact\(facts.count == 1 ? "" : "s") (\(facts.keys.sorted().joined(separator: ", ")))")
    }
  }

  /// `a`, `a and b`, `a, b and c`.
  static func names(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }
}

import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTools

/// The `--policy` (and `--against`) of a dry-run, checked in each store's words: a source of
/// both stores' requests decides each by its store's schema, so the one policy must check in
/// the words of every store whose requests the source holds.
struct DryRunPolicies {
  /// A policy and its `--against`, both checked in one store's words.
  struct Checked {
    let policy: CompiledPolicy
    let against: CompiledPolicy?
  }

  /// Checked in the App Store's words; nil when either does not check.
  let appStore: Checked?
  /// Checked in Google Play's words; nil when either does not check.
  let googlePlay: Checked?
  /// The diagnostics of each check, rendered, shown when that store's requests are found.
  private let appStoreDiagnostics: String
  private let googlePlayDiagnostics: String

  /// Google Play's schema: the App Store `schema`'s custom facts over Google's standard ones.
  let googlePlaySchema: FactSchema

  /// Loads both files in both stores' words; nil (after printing the App Store diagnostics, as
  /// a run of Apple's requests always has) when neither store's check passes.
  static func load(
    _ options: DryRunOptions, schema: FactSchema, console: Console
  ) throws -> DryRunPolicies? {
    let googlePlaySchema = schema.schema(for: .googlePlay)
    let apple = try check(options, schema, console)
    let google = try check(options, googlePlaySchema, console)
    let policies = DryRunPolicies(
      appStore: apple.checked, googlePlay: google.checked, appStoreDiagnostics: apple.rendered,
      googlePlayDiagnostics: google.rendered, googlePlaySchema: googlePlaySchema)
    // With --store, that store's check alone counts.
    if let store = options.store {
      let chosen = store == .appStore ? apple : google
      if !chosen.rendered.isEmpty { console.error(chosen.rendered) }
      return chosen.checked == nil ? nil : policies
    }
    // App Store requests are the usual case: their diagnostics (warnings, or the errors when
    // nothing checks) are shown as they always were.
    if apple.checked != nil || google.checked == nil, !apple.rendered.isEmpty {
      console.error(apple.rendered)
    } else if apple.checked == nil, !google.rendered.isEmpty {
      // A policy in Google Play's words alone: its warnings, in those words.
      console.error(google.rendered)
    }
    return apple.checked == nil && google.checked == nil ? nil : policies
  }

  /// The policy results carry the rule names of: the App Store check's, else Google Play's
  /// (the rules are the same, whichever words they were checked in).
  var primary: Checked { appStore ?? googlePlay! }

  /// The checked pair for `store`; when it does not check, its diagnostics go to `console` and
  /// the error says which store's requests `source` holds.
  func require(_ store: FactSchema.Store, in source: String, _ console: Console) throws -> Checked {
    if let checked = store == .appStore ? appStore : googlePlay { return checked }
    let diagnostics = store == .appStore ? appStoreDiagnostics : googlePlayDiagnostics
    if !diagnostics.isEmpty { console.error(diagnostics) }
    let words = store == .appStore ? "the App Store's" : "Google Play's"
    let requests = store == .appStore ? "App Store requests" : "Google Play reviews"
    let other: FactSchema.Store = store == .appStore ? .googlePlay : .appStore
    throw Refusal(
      description:
        "\(source) holds \(requests), and the policy does not check in \(words) words (see "
        + "above); give a policy that checks in the words of both stores "
        + "(reckon check --store \(store.rawValue) FILE), or --store \(other.rawValue) to "
        + "decide only the other store's requests")
  }

  /// A source holding requests of a store the policy does not check for.
  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  private static func check(_ options: DryRunOptions, _ schema: FactSchema, _ console: Console)
    throws -> (checked: Checked?, rendered: String)
  {
    var rendered: [String] = []
    func load(_ path: String) throws -> CompiledPolicy? {
      let loaded = try PolicyFiles.load(path, schema: schema)
      if !loaded.diagnostics.isEmpty {
        rendered.append(loaded.renderedDiagnostics(colour: console.colour))
      }
      return loaded.policy
    }
    // Both are loaded so every error is shown at once; a broken --against fails the run like
    // a broken --policy rather than leaving the comparison out.
    let policy = try load(options.policyPath)
    let against = try options.againstPath.map(load)
    guard let policy, against.map({ $0 != nil }) ?? true else {
      return (nil, rendered.joined(separator: "\n"))
    }
    return (Checked(policy: policy, against: against ?? nil), rendered.joined(separator: "\n"))
  }
}

import Foundation
import ReckonEngine
import ReckonFacts

/// `--config FILE` for commands that check policies: the fact schema with the custom facts the
/// configured fact sources declare, so a policy reading `custom.vip` checks as it will load in
/// `reckon serve`. Without it, the standard facts only. The sources are not opened: a policy
/// checks before its facts database exists.
enum CustomFactsOption {
  static func schema(_ arguments: inout Arguments) throws -> FactSchema {
    guard let path = arguments.option("config") else { return .standard }
    let configuration = try ReckonConfiguration.load(path: path)
    return try FactSourceSetup.schema(
      configuration.factSources, currencies: configuration.currencies)
  }

  /// The schema, which stores' words each policy file is checked in (`--store` for every
  /// file, else those of the apps `--config` gives the file to, else the App Store's), and the
  /// policy files `--config`'s apps name, each once in the order first named.
  static func stores(_ arguments: inout Arguments) throws -> (
    schema: FactSchema, stores: (String) -> [FactSchema.Store], configured: [String]
  ) {
    let store = try arguments.option("store").map { given throws(UsageError) in
      guard let store = FactSchema.Store(rawValue: given) else {
        throw UsageError("--store must be appStore or googlePlay")
      }
      return store
    }
    guard let path = arguments.option("config") else {
      return (.standard, { _ in [store ?? .appStore] }, [])
    }
    let configuration = try ReckonConfiguration.load(path: path)
    let schema = try FactSourceSetup.schema(
      configuration.factSources, currencies: configuration.currencies)
    var configured: [String] = []
    for policy in configuration.apps.map(\.policyPath)
      + configuration.googlePlayApps.map(\.policyPath) where !configured.contains(policy)
    {
      configured.append(policy)
    }
    if let store { return (schema, { _ in [store] }, configured) }
    func normal(_ path: String) -> String {
      URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    let apple = Set(configuration.apps.map { normal($0.policyPath) })
    let google = Set(configuration.googlePlayApps.map { normal($0.policyPath) })
    return (
      schema,
      { file in
        let file = normal(file)
        let stores: [FactSchema.Store] =
          (apple.contains(file) ? [.appStore] : []) + (google.contains(file) ? [.googlePlay] : [])
        return stores.isEmpty ? [.appStore] : stores
      },
      configured
    )
  }
}

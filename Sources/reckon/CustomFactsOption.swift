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
}

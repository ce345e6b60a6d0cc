import Foundation
import ReckonEngine

/// `--state FILE|URL`, or else the state `reckon.json` names: for commands that read or tidy
/// the state and need nothing else of the configuration.
enum StateFileOption {
  /// `--state` (a PostgreSQL address takes its password from libpq's `PGPASSWORD` or password
  /// file), else the `state` of `--config` (or of ./reckon.json when there is one).
  static func choice(_ arguments: inout Arguments) throws -> StateChoice {
    try located(state: arguments.option("state"), config: arguments.option("config")).state
  }

  /// The state `--state` (`state`) or `--config` (`config`) names, as `choice` finds it, with
  /// the configuration that named it (nil for `--state`).
  static func located(state: String?, config configuration: String?) throws
    -> (state: StateChoice, configuration: ReckonConfiguration?)
  {
    if let given = state {
      // Either names the state: with both, one would be silently passed over.
      guard configuration == nil else {
        throw UsageError(
          "give --state or --config, not both: --state \(given) would be read and the state "
            + "of \(configuration ?? "") passed over")
      }
      return (StateChoice(location: given), nil)
    }
    guard configuration != nil || FileManager.default.fileExists(atPath: "reckon.json") else {
      throw UsageError(
        "missing --state FILE|URL (the state database), or --config reckon.json whose state names it"
      )
    }
    let loaded = try ReckonConfiguration.load(path: configuration ?? "reckon.json")
    return (StateChoice(loaded), loaded)
  }
}

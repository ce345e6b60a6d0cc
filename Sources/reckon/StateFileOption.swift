import Foundation
import ReckonEngine

/// `--state FILE|URL`, or else the state `reckon.json` names: for commands that read or tidy
/// the state and need nothing else of the configuration.
enum StateFileOption {
  /// `--state` (a PostgreSQL address takes its password from libpq's `PGPASSWORD` or password
  /// file), else the `state` of `--config` (or of ./reckon.json when there is one).
  static func choice(_ arguments: inout Arguments) throws -> StateChoice {
    let configuration = arguments.option("config")
    if let given = arguments.option("state") {
      // Either names the state: with both, one would be silently passed over.
      guard configuration == nil else {
        throw UsageError(
          "give --state or --config, not both: --state \(given) would be read and the state "
            + "of \(configuration ?? "") passed over")
      }
      return StateChoice(location: given)
    }
    guard configuration != nil || FileManager.default.fileExists(atPath: "reckon.json") else {
      throw UsageError(
        "missing --state FILE|URL (the state database), or --config reckon.json whose state names it"
      )
    }
    return StateChoice(try ReckonConfiguration.load(path: configuration ?? "reckon.json"))
  }
}

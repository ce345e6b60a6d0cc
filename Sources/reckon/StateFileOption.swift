import Foundation
import ReckonEngine

/// `--state FILE`, or else the state database `reckon.json` names: for commands that read or
/// tidy the state database and need nothing else of the configuration.
enum StateFileOption {
  /// `--state`, else `state.path` of `--config` (or of ./reckon.json when there is one).
  static func path(_ arguments: inout Arguments) throws -> String {
    let configuration = arguments.option("config")
    if let given = arguments.option("state") { return given }
    guard configuration != nil || FileManager.default.fileExists(atPath: "reckon.json") else {
      throw UsageError(
        "missing --state FILE (the state database), or --config reckon.json whose state.path names it"
      )
    }
    return try ReckonConfiguration.load(path: configuration ?? "reckon.json").statePath
  }
}

import Foundation
import ReckonTestSupport

@testable import ReckonStateSQLite

/// The engine tests' records (the shared samples) and temporary state databases.
typealias TestState = StateSamples

extension StateSamples {
  static func temporaryPath() -> String {
    TestScratch.folder.appendingPathComponent("reckon-state-\(UUID().uuidString).sqlite").path
  }

  static func store() throws -> SQLiteStateStore {
    try SQLiteStateStore(path: temporaryPath())
  }
}

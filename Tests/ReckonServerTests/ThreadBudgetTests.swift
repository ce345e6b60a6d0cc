import ReckonEngine
import Testing

@testable import ReckonServer

/// The thread budget `reckon serve` checks maxConnections against before it starts.
struct ThreadBudgetTests {
  @Test(arguments: [(136, 200, true), (137, 200, false), (10_000, nil, true), (1, 64, false)])
  func connectionsAndTheProcessesOwnThreadsMustFitTheLimit(
    connections: Int, limit: Int?, fits: Bool
  ) {
    let result = Result { () throws(ConfigurationError) in
      try ThreadBudget.check(maximumConnections: connections, limit: limit)
    }
    switch result {
    case .success: #expect(fits)
    case .failure(let error):
      #expect(!fits, "\(error)")
      #expect(error.key == "server.maxConnections")
    }
  }
}

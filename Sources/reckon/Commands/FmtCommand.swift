import ReckonEngine

enum FmtCommand: Command {
  static let name = "fmt"
  static let summary = "Format policy files in the canonical layout"
  static let flagNames: Set<String> = ["check"]
  static let help = ""
  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 { 0 }
}

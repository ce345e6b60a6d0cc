/// A benchmark's `--name value` options and `--flag` switches.
struct BenchmarkOptions {
  private(set) var values: [String: String] = [:]
  private(set) var flags: Set<String> = []

  init(_ arguments: [String]) {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("--") else { continue }
      let name = String(argument.dropFirst(2))
      if index < arguments.count, !arguments[index].hasPrefix("--") {
        values[name] = arguments[index]
        index += 1
      } else {
        flags.insert(name)
      }
    }
  }

  func int(_ name: String, _ fallback: Int) -> Int { values[name].flatMap(Int.init) ?? fallback }

  func double(_ name: String, _ fallback: Double) -> Double {
    values[name].flatMap(Double.init) ?? fallback
  }

  func string(_ name: String, _ fallback: String) -> String { values[name] ?? fallback }

  func flag(_ name: String) -> Bool { flags.contains(name) }
}

import ReckonPolicy

/// A benchmark's `--name value` options and `--flag` switches, checked against what the
/// benchmark takes: a misspelt option is refused rather than quietly running the default (a
/// million-request run, say).
struct BenchmarkOptions {
  private(set) var values: [String: String] = [:]
  private(set) var flags: Set<String> = []

  /// Reads `arguments` for `benchmark`; throws on an option it does not take, a value missing,
  /// or a number that is not one.
  init(_ arguments: [String], for benchmark: Benchmark) throws(BenchmarkUsageError) {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("--"), argument.count > 2 else {
        throw .unexpectedArgument(argument, benchmark: benchmark.name)
      }
      let name = String(argument.dropFirst(2))
      guard let option = benchmark.options.first(where: { $0.name == name }) else {
        let closest = Suggestions.closest(to: name, among: benchmark.options.map(\.name))
        throw .unknownOption(argument, benchmark: benchmark.name, closest: closest)
      }
      guard option.kind != .flag else {
        flags.insert(name)
        continue
      }
      guard index < arguments.count, !arguments[index].hasPrefix("--") else {
        throw .missingValue(argument, placeholder: option.placeholder)
      }
      let value = arguments[index]
      index += 1
      switch option.kind {
      case .integer where Int(value).map({ $0 > 0 }) != true,
        .number where Double(value).map({ $0.isFinite && $0 > 0 }) != true:
        throw .notAPositiveNumber(argument, value)
      case .count where Int(value).map({ $0 >= 0 }) != true:
        throw .notACount(argument, value)
      case .choice(let choices) where !choices.contains(value):
        throw .notAChoice(argument, value, choices: choices)
      default: values[name] = value
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

/// Why `reckon-bench`'s arguments were refused.
enum BenchmarkUsageError: Error, CustomStringConvertible {
  case unknownBenchmark(String, closest: String?)
  case unknownOption(String, benchmark: String, closest: String?)
  case unexpectedArgument(String, benchmark: String)
  case missingValue(String, placeholder: String)
  case notAPositiveNumber(String, String)
  case notACount(String, String)
  case notAChoice(String, String, choices: [String])

  var description: String {
    switch self {
    case .unknownBenchmark(let name, let closest):
      "no benchmark named '\(name)'" + (closest.map { " (did you mean '\($0)'?)" } ?? "")
    case .unknownOption(let option, let benchmark, let closest):
      "'\(benchmark)' takes no option \(option)"
        + (closest.map { " (did you mean --\($0)?)" } ?? "")
    case .unexpectedArgument(let argument, let benchmark):
      "'\(benchmark)' takes options only (--name value), not '\(argument)'"
    case .missingValue(let option, let placeholder):
      "\(option) needs a value: \(option) \(placeholder)"
    case .notAPositiveNumber(let option, let value):
      "\(option) needs a positive number, not '\(value)'"
    case .notACount(let option, let value):
      "\(option) needs a whole number, 0 or more, not '\(value)'"
    case .notAChoice(let option, let value, let choices):
      "\(option) is one of \(choices.joined(separator: ", ")), not '\(value)'"
    }
  }
}

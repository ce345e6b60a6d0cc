import Testing

/// A command line and the message it must fail with, for the CLI's error tables.
struct CommandErrorCase: CustomTestStringConvertible, Sendable {
  let arguments: [String]
  let message: String
  var testDescription: String { "reckon " + arguments.joined(separator: " ") }
}

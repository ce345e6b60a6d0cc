/// Why the SQLite adapter could not start or could not answer; each case names the query and,
/// where one is at fault, the column.
public enum SQLiteFactSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The database file could not be opened or read now: missing, not readable, or locked past
  /// the busy timeout.
  case cannotOpen(path: String, message: String)
  /// The configuration gives no query.
  case noQueries
  /// SQLite could not compile the query.
  case malformedQuery(query: String, message: String)
  /// The query would change the database; fact queries only read.
  case writesData(query: String)
  /// A parameter is not one of the request keys (`:transaction_id`, ...), or is positional.
  case unknownParameter(query: String, parameter: String)
  /// A result column is not named after a fact.
  case unknownFact(query: String, column: String, suggestion: String?)
  /// A result column names a fact only the signed notification may give.
  case notificationFact(query: String, column: String)
  /// Two columns, in one query or two, supply the same fact.
  case duplicateFact(column: String, queries: [String])
  /// Running the query failed (a locked database past the busy timeout, an I/O error).
  case queryFailed(query: String, message: String)
  /// A value in a column is not of its fact's type.
  case wrongType(query: String, column: String, message: String)
  /// A lookup found values in another store's words, and the other facts.
  case otherStoresValues(FactsInOtherStoresWords)
  /// A lookup's queries ran past the source's time limit and SQLite was told to stop them.
  case timedOut(query: String, limitMs: Int)

  /// Whether the file could not be opened or read now (`cannotOpen`), a state that may pass by
  /// itself, unlike SQL, columns or values at fault.
  public var isUnavailable: Bool {
    if case .cannotOpen = self { true } else { false }
  }

  /// The configured query at fault, if one is (a value in another store's words is the data's).
  public var query: String? {
    switch self {
    case .cannotOpen, .noQueries, .otherStoresValues: nil
    case .duplicateFact(_, let queries): queries.last
    case .malformedQuery(let query, _), .writesData(let query), .unknownParameter(let query, _),
      .unknownFact(let query, _, _), .notificationFact(let query, _), .queryFailed(let query, _),
      .wrongType(let query, _, _), .timedOut(let query, _):
      query
    }
  }

  /// A sentence naming the query, the column and the problem.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let message): "cannot open \(path): \(message)"
    case .noQueries: "no queries are configured"
    case .malformedQuery(let query, let message): "query '\(query)' does not compile: \(message)"
    case .writesData(let query):
      "query '\(query)' would change the database; fact queries may only SELECT"
    case .unknownParameter(let query, let parameter):
      "query '\(query)': unknown parameter \(parameter); use "
        + RequestKeys.Field.allCases.map(\.parameter).joined(separator: ", ")
    case .unknownFact(let query, let column, let suggestion):
      "query '\(query)': column \"\(column)\" is not a fact"
        + (suggestion.map { " (did you mean '\($0)'?)" }
          ?? "; name each column after a fact with AS \"fact.name\"")
    case .notificationFact(let query, let column):
      "query '\(query)': column \"\(column)\" names a fact that only the signed notification may give"
    case .duplicateFact(let column, let queries):
      "fact \(column) is supplied twice, by "
        + queries.map { "query '\($0)'" }.joined(separator: " and ")
    case .queryFailed(let query, let message): "query '\(query)' failed: \(message)"
    case .wrongType(let query, let column, let message):
      "query '\(query)', column \"\(column)\": \(message)"
    case .otherStoresValues(let words): words.description
    case .timedOut(let query, let limit):
      "query '\(query)' was stopped after the source's \(limit) ms (timeoutMs): it needs an index, "
        + "or a longer timeoutMs"
    }
  }
}

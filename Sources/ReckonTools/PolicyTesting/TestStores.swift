import ReckonFacts
import ReckonPolicy

/// The stores a tests file's tests describe (`store NAME`, in the file or in a test), which the
/// policy language leaves to the tools to name.
enum TestStores {
  /// The stores the tests of `source` describe, in the order first named, `schema`'s for those
  /// that name none; with a diagnostic for each name that is no store.
  static func read(_ source: SourceFile, default schema: FactSchema) -> (
    stores: [FactSchema.Store], diagnostics: [Diagnostic]
  ) {
    let file = PolicyTestParser.parse(source, vocabulary: schema.policySchema.vocabulary).file
    var stores: [FactSchema.Store] = []
    var diagnostics: [Diagnostic] = []
    let named = [file.store].compactMap { $0 } + file.tests.compactMap(\.store)
    for name in named where FactSchema.Store(rawValue: name.value) == nil {
      let all = FactSchema.Store.allCases.map(\.rawValue)
      diagnostics.append(
        Diagnostic(
          .unknownName, .error, "unknown store '\(name.value)'", at: name.span,
          hint: Suggestions.closest(to: name.value, among: all).map { "did you mean '\($0)'?" }
            ?? "expected one of: \(all.joined(separator: ", "))"))
    }
    for index in file.tests.indices {
      let store = Self.store(file.store(of: index), default: schema.store)
      if !stores.contains(store) { stores.append(store) }
    }
    return (stores.isEmpty ? [schema.store] : stores, diagnostics)
  }

  /// The store `name` names, `fallback` when none is named (or the name is none, reported apart).
  static func store(_ name: Located<String>?, default fallback: FactSchema.Store)
    -> FactSchema.Store
  {
    name.flatMap { FactSchema.Store(rawValue: $0.value) } ?? fallback
  }

  /// `the App Store's` or `Google Play's`.
  static func words(_ store: FactSchema.Store) -> String {
    store == .appStore ? "the App Store's" : "Google Play's"
  }
}

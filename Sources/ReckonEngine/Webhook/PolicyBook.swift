import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonSupport

/// The live policy of every app, loaded and checked at start, replaced only by a version that
/// checks: a changed file that fails `check` is refused and the previous version stays live.
public final class PolicyBook: @unchecked Sendable {
  /// Where an app's policy comes from.
  public enum Source: Hashable, Sendable {
    /// A policy file, re-read on `reload()` when it changed.
    case file(String)
    /// Policy text held in memory, named `name` in diagnostics.
    case text(name: String, String)

    var name: String {
      switch self {
      case .file(let path): path
      case .text(let name, _): name
      }
    }
  }

  /// One app's live policy.
  public struct Entry: Sendable {
    /// Where it came from.
    public let source: Source
    /// The compiled policy.
    public let policy: CompiledPolicy
    /// The exact text it was compiled from (its SHA-256 is stored with each decision).
    public let text: String
    /// SHA-256 of `text` as hex, computed once rather than for every decision.
    public let textSHA256: String
    /// The facts a decision by `policy` reads, found once rather than by walking its rules for
    /// every request.
    public let reads: Set<String>
    /// `check`'s warnings about it, each rendered as `reckon check` prints it.
    public let warnings: [String]
    /// The file's stamp when it was read, for change detection; nil for text.
    let modified: FileStamp?
  }

  /// A policy that does not check, with its rendered diagnostics.
  public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or name.
    public let source: String
    /// The diagnostics as `reckon check` prints them.
    public let diagnostics: String

    /// The source and the diagnostics.
    public var description: String { "\(source) does not check:\n\(diagnostics)" }

    /// The line that names the first error and where it is (the first line when none does).
    public var firstLine: String {
      let lines = diagnostics.split(whereSeparator: \.isNewline)
      let line = lines.first { $0.contains(": error: ") } ?? lines.first ?? ""
      return QuotedText.cut(String(line), to: 300)
    }
  }

  /// A policy file whose version on disk was refused, while an earlier version decides.
  public struct RefusedFile: Hashable, Sendable {
    /// The file.
    public let path: String
    /// The first line of why it was refused, as `reckon check` prints it.
    public let problem: String
    /// When it was first refused since its last version that checked.
    public let since: Date
  }

  /// The schema policies are checked against.
  public let schema: FactSchema
  /// The largest policy file read.
  public let fileLimit: FileSizeLimit
  private let lock = NSLock()
  private var entries: [AppStoreApp: Entry]
  /// The stamp of each file's last refused version (or of its absence), so it is reported once.
  private var refused: [String: FileStamp] = [:]
  /// Why each file refused now was refused, for `/healthz` and `/metrics`.
  private var refusals: [String: RefusedFile] = [:]

  /// Loads and checks the policy of every app, reading no file larger than `fileLimit`; fails
  /// on the first that does not check.
  public init(
    _ sources: [AppStoreApp: Source], schema: FactSchema, fileLimit: FileSizeLimit = .policy
  ) throws(Refusal) {
    self.schema = schema
    self.fileLimit = fileLimit
    var entries: [AppStoreApp: Entry] = [:]
    for (app, source) in sources.sorted(by: { $0.key.description < $1.key.description }) {
      entries[app] = try Self.load(source, schema: schema, fileLimit: fileLimit)
    }
    self.entries = entries
  }

  /// The live policy for `app`.
  public func entry(for app: AppStoreApp) -> Entry? {
    lock.withLock { entries[app] }
  }

  /// The files whose version on disk is refused now, by path: until each is fixed, an earlier
  /// version of it decides.
  public func refusedFiles() -> [RefusedFile] {
    lock.withLock { refusals.values.sorted { $0.path < $1.path } }
  }

  /// Whether each policy file's version on disk is refused now, by path.
  public func filesRefused() -> [String: Bool] {
    lock.withLock {
      var standing: [String: Bool] = [:]
      for entry in entries.values {
        if case .file(let path) = entry.source { standing[path] = refusals[path] != nil }
      }
      return standing
    }
  }

  /// Every app's live policy, by app, for the log at start-up.
  public func live() -> [ReckonEvent] {
    lock.withLock { entries }.sorted { $0.key.description < $1.key.description }.map {
      .policyLive(LivePolicy($0.value, app: $0.key))
    }
  }

  /// Re-reads every policy file that changed (its identity, size or modification time, through
  /// symbolic links), or all of them with `force`; applies those that check, refuses the others
  /// (a removed file too) and keeps their previous version live.
  public func reload(force: Bool = false) -> [ReckonEvent] {
    let (current, refusedVersions) = lock.withLock { (entries, refused) }
    var events: [ReckonEvent] = []
    var loadedByPath: [String: Result<Entry, Refusal>] = [:]
    for (app, entry) in current.sorted(by: { $0.key.description < $1.key.description }) {
      guard case .file(let path) = entry.source else { continue }
      let modified = FileStamp(path)
      guard force || (modified != entry.modified && modified != refusedVersions[path]) else {
        continue
      }
      let result =
        loadedByPath[path]
        ?? Result { () throws(Refusal) in
          try Self.load(entry.source, schema: schema, fileLimit: fileLimit)
        }
      if loadedByPath[path] == nil {
        loadedByPath[path] = result
        if case .failure(let refusal) = result {
          events.append(.policyRefused(path: path, diagnostics: refusal.diagnostics))
          lock.withLock {
            refused[path] = modified
            refusals[path] = RefusedFile(
              path: path, problem: refusal.firstLine, since: refusals[path]?.since ?? Date())
          }
        }
      }
      guard case .success(let fresh) = result else { continue }
      // A refused edit taken back (the file restored as it was) is said too: the log's last
      // word on the file would otherwise stay "refused" while the live version decides.
      let restored = refusedVersions[path] != nil
      lock.withLock {
        entries[app] = fresh
        refused[path] = nil
        refusals[path] = nil
      }
      if fresh.text != entry.text || restored {
        events.append(.policyApplied(LivePolicy(fresh, app: app)))
      }
    }
    return events
  }

  private static func load(_ source: Source, schema: FactSchema, fileLimit: FileSizeLimit)
    throws(Refusal) -> Entry
  {
    let file: SourceFile
    var modified: FileStamp?
    switch source {
    case .file(let path):
      modified = FileStamp(path)
      do { file = try PolicyFiles.read(path, limit: fileLimit) } catch {
        guard case .unreadable(_, let reason) = error else {
          throw Refusal(source: path, diagnostics: error.description)
        }
        throw Refusal(source: path, diagnostics: "cannot read: \(reason)")
      }
    case .text(let name, let body): file = SourceFile(path: name, text: body)
    }
    let text = file.text
    let loaded = PolicyLoader.load(file, schema: schema.policySchema)
      .withAnswerCoverage(schema: schema)
    guard let policy = loaded.policy else {
      throw Refusal(source: source.name, diagnostics: loaded.renderedDiagnostics())
    }
    let formatter = DiagnosticFormatter()
    return Entry(
      source: source, policy: policy, text: text, textSHA256: SHA256Digest.hex(Data(text.utf8)),
      reads: FactGathering.factsRead(by: policy),
      warnings: loaded.diagnostics.map { formatter.render($0, in: loaded.source) },
      modified: modified)
  }
}

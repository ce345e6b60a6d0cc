import Foundation
import ReckonPolicy
import ReckonSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Facts from a JSON file, or a folder of `*.json` files, keyed by transactionId or
/// appAccountToken (see `docs/configuration.md` for the shape).
///
/// The files are checked on every lookup and re-read when one changes (size, modification time or
/// identity), so support staff can edit them while Reckon runs. The re-reading runs on a thread
/// of its own, beside the lookups: a lookup waits up to `reloadWait` for it (a small file is
/// read by then, so an edit counts at once) and otherwise answers from the version before.
/// While a changed file does not read, `facts(for:)` fails with its problem (reported once and
/// kept in `lastReloadError`), so requests wait for the fix; `lookup` answers from the last
/// good version.
public final class JSONFileFactSource: FactSource, @unchecked Sendable {
  /// The provenance name of its facts.
  public let name: String
  /// The file or folder read.
  public let path: String
  private let schema: FactSchema
  private let limit: FileSizeLimit
  private let report: @Sendable (JSONFileFactSourceError) -> Void
  private let lock = NSLock()
  private var contents: JSONFactsFile
  private var fingerprint: [FileStamp]
  private var failure: JSONFileFactSourceError?
  /// The re-reading under way, if one is.
  private var reloading: ReloadWaiters?

  /// How long a lookup waits for a re-read it found due before answering from the version
  /// before.
  static let reloadWait: Duration = .milliseconds(50)

  /// Reads `path` (a file or a folder), each file no larger than `limit`; fails when it cannot
  /// be read or a fact does not check.
  /// A change that no longer reads is handed to `report` (once per change); the source keeps
  /// refusing the file's facts until it reads again, whether or not anyone is told.
  public init(
    name: String, path: String, schema: FactSchema, limit: FileSizeLimit = .facts,
    report: @escaping @Sendable (JSONFileFactSourceError) -> Void = { _ in }
  ) throws(JSONFileFactSourceError) {
    self.name = name
    self.path = path
    self.schema = schema
    self.limit = limit
    self.report = report
    let files = try JSONFileFactSource.files(at: path)
    fingerprint = files.map(FileStamp.init)
    contents = try JSONFactsFile(files: files, schema: schema, limit: limit)
  }

  /// Why the last re-read failed, while lookups through `facts(for:)` fail with it; nil when
  /// current.
  public var lastReloadError: JSONFileFactSourceError? {
    lock.withLock { failure }
  }

  /// The facts the files give for `keys`, re-reading them first if they changed. While an edit
  /// does not read, this throws its problem: the request waits and is tried again, rather than
  /// be decided for good on a version someone has just replaced (the entry they were adding
  /// missing from it, say).
  public func facts(for keys: RequestKeys) async throws -> [String: Value] {
    if let reload = reloadInBackgroundIfChanged() {
      await reload.wait(upTo: Self.reloadWait)
    }
    let (current, failure) = lock.withLock { (contents, self.failure) }
    if let failure { throw failure }
    return try current.facts(for: keys)
  }

  /// The facts the files give for `keys` as last read, synchronously and without re-reading;
  /// fails only for values in another store's words (`.otherStoresValues`, with the others).
  public func lookup(_ keys: RequestKeys) throws(JSONFileFactSourceError) -> [String: Value] {
    try lock.withLock { contents }.facts(for: keys)
  }

  /// Starts re-reading the files on a thread of its own when they changed since the last read,
  /// unless a re-read is under way already; returns the re-read under way, if any.
  private func reloadInBackgroundIfChanged() -> ReloadWaiters? {
    let files = (try? JSONFileFactSource.files(at: path)) ?? []
    let stamps = files.map(FileStamp.init)
    let (waiters, start) = lock.withLock { () -> (ReloadWaiters?, Bool) in
      if let reloading { return (reloading, false) }
      guard stamps != fingerprint else { return (nil, false) }
      let started = ReloadWaiters()
      reloading = started
      return (started, true)
    }
    guard start, let waiters else { return waiters }
    let thread = Thread { [self] in
      reload(files, stamps: stamps)
      lock.withLock { reloading = nil }
      waiters.finish()
    }
    thread.name = "reckon-facts-reload"
    thread.start()
    return waiters
  }

  /// Re-reads the files when they changed since the last read, on the calling thread; on error
  /// keeps the old contents (which `lookup` still answers from) and remembers the problem.
  public func reloadIfChanged() {
    let files = (try? JSONFileFactSource.files(at: path)) ?? []
    let stamps = files.map(FileStamp.init)
    lock.lock()
    let changed = stamps != fingerprint
    lock.unlock()
    guard changed else { return }
    reload(files, stamps: stamps)
  }

  private func reload(_ files: [String], stamps: [FileStamp]) {
    let result = Result { () throws(JSONFileFactSourceError) in
      if files.isEmpty {
        throw .unreadable(path: path, reason: "no such file, or no *.json files in the folder")
      }
      return try JSONFactsFile(files: files, schema: schema, limit: limit)
    }
    lock.lock()
    fingerprint = stamps
    switch result {
    case .success(let fresh):
      contents = fresh
      failure = nil
    case .failure(let error):
      failure = error
    }
    lock.unlock()
    if case .failure(let error) = result { report(error) }
  }

  /// A reload problem as one sentence for a person.
  public static func reloadProblem(_ error: JSONFileFactSourceError) -> String {
    "facts file does not read since it changed; requests that read it wait until it is fixed: \(error)"
  }

  /// The file itself, or the folder's `*.json` files in name order, each as the folder's path
  /// followed by its name.
  static func files(at path: String) throws(JSONFileFactSourceError) -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw .unreadable(path: path, reason: "no such file or folder")
    }
    guard isFolder.boolValue else { return [path] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let prefix = path.hasSuffix("/") ? path : path + "/"
    // Hidden files are an editor's (emacs keeps `.#notes.json` as a lock while editing), not facts.
    let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
      prefix + $0
    }
    guard !files.isEmpty else {
      throw .unreadable(path: path, reason: "the folder has no *.json files")
    }
    return files
  }
}

/// Lookups waiting for a re-read, each until it ends or its own wait runs out.
private final class ReloadWaiters: @unchecked Sendable {
  private let lock = NSLock()
  private var done = false
  private var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
  private var nextID: UInt64 = 0

  /// Returns once the re-read has ended, or after `limit`, whichever comes first.
  func wait(upTo limit: Duration) async {
    let id = lock.withLock { () -> UInt64 in
      nextID += 1
      return nextID
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = lock.withLock { () -> Bool in
        if done { return true }
        waiting[id] = continuation
        return false
      }
      if now {
        continuation.resume()
        return
      }
      _ = DeadlineClock.shared.schedule(after: limit) { [self] in resume(id) }
    }
  }

  /// Ends every wait: the re-read is over.
  func finish() {
    let all = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      done = true
      defer { waiting = [:] }
      return Array(waiting.values)
    }
    for continuation in all { continuation.resume() }
  }

  private func resume(_ id: UInt64) {
    lock.withLock { waiting.removeValue(forKey: id) }?.resume()
  }
}

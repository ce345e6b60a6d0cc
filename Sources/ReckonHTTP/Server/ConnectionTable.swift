/// The server's open connections, as it admits, evicts and counts them: at most `maximum` at
/// once and `maximumPerClient` from one address. When the server is full, a new connection
/// takes the place of the one idle longest between requests rather than being refused, so
/// clients that hold keep-alive connections open cannot keep Apple out; a connection reading or
/// answering a request is never evicted. Pure bookkeeping, no I/O: `HTTPServer` holds it under
/// its lock.
struct ConnectionTable {
  /// What becomes of a new connection.
  enum Admission: Equatable {
    /// Served, under `id`; `evicting` names the idle connection closed to make room.
    case admitted(id: Int, evicting: Int?)
    /// Refused: the server is full and every connection is busy.
    case full
    /// Refused: its address already has `maximumPerClient` connections open.
    case clientFull
  }

  private struct Entry {
    let client: String
    /// When the connection last finished a request (or opened); nil while it reads or answers one.
    var idleSince: Double?
  }

  /// How long a connection must have been idle to be closed for another: a new one has this
  /// long to send its first bytes, and one that just answered, to be sent its next request.
  static let evictionGrace = 1.0

  /// Connections served at once.
  let maximum: Int
  /// Connections served at once from one address.
  let maximumPerClient: Int
  private var entries: [Int: Entry] = [:]
  private var perClient: [String: Int] = [:]
  /// Connections told to close that have not closed yet; they no longer count.
  private var evicted: Set<Int> = []
  private var nextID = 0

  init(maximum: Int, maximumPerClient: Int) {
    self.maximum = maximum
    self.maximumPerClient = min(maximum, maximumPerClient)
  }

  /// Connections counted against the limits.
  var count: Int { entries.count }

  /// Of them, those reading or answering a request.
  var busyCount: Int { entries.values.count { $0.idleSince == nil } }

  /// Admits a connection from `client` at time `now` (seconds). At a limit it evicts the
  /// connection idle longest among those the limit counts: the client's own at its limit, any
  /// at the server's.
  mutating func admit(client: String, now: Double) -> Admission {
    var evicting: Int?
    if perClient[client, default: 0] >= maximumPerClient {
      // Without a lower limit per client, this is the server's limit.
      guard let own = longestIdle(from: client, now: now) else {
        return maximumPerClient < maximum ? .clientFull : .full
      }
      evicting = own
    } else if entries.count >= maximum {
      guard let any = longestIdle(from: nil, now: now) else { return .full }
      evicting = any
    }
    if let evicting {
      forget(evicting)
      evicted.insert(evicting)
    }
    let id = nextID
    nextID += 1
    entries[id] = Entry(client: client, idleSince: now)
    perClient[client, default: 0] += 1
    return .admitted(id: id, evicting: evicting)
  }

  /// The connection idle longest, and at least `evictionGrace`, from `client` or from anyone.
  private func longestIdle(from client: String?, now: Double) -> Int? {
    var found: (id: Int, since: Double)?
    for (id, entry) in entries where client == nil || entry.client == client {
      guard let since = entry.idleSince, since <= now - Self.evictionGrace,
        since < found?.since ?? .infinity
      else { continue }
      found = (id, since)
    }
    return found?.id
  }

  /// Marks `id` as reading or answering a request, so it is not evicted until it is idle
  /// again; false when it was evicted already, and must close without serving: it no longer
  /// counts against the limits.
  mutating func busy(_ id: Int) -> Bool {
    guard entries[id] != nil else { return false }
    entries[id]?.idleSince = nil
    return true
  }

  /// Marks `id` as waiting for its next request since `now`.
  mutating func idle(_ id: Int, now: Double) {
    entries[id]?.idleSince = now
  }

  /// Whether `id` was told to close to make room for another.
  func isEvicted(_ id: Int) -> Bool { evicted.contains(id) }

  /// Forgets `id` once it has closed, evicted or not.
  mutating func closed(_ id: Int) {
    forget(id)
    evicted.remove(id)
  }

  private mutating func forget(_ id: Int) {
    guard let entry = entries.removeValue(forKey: id) else { return }
    perClient[entry.client, default: 1] -= 1
    if perClient[entry.client] == 0 { perClient[entry.client] = nil }
  }
}

/// The server's open connections, as it admits, evicts and counts them: at most `maximum` at
/// once and `maximumPerClient` from one address. A connection waits for a request (its first or
/// its next), reads one, or is busy answering one; a busy one is never evicted. When the server
/// is full a new connection takes the place of one that is not busy from the address holding
/// the most connections, if that holds at least two more than the new one's: under pressure the
/// shares even out, so one client cannot keep another out with silent connections or slow
/// requests, yet one address alone (every connection, behind a proxy) may hold every slot.
/// Failing that it takes the place of the one waiting longest between requests from an address
/// holding at least as many as its own, so clients that hold keep-alive connections open cannot
/// keep Apple out, nor can a flood take Apple's. Pure bookkeeping, no I/O: `HTTPServer` holds
/// it under its lock.
struct ConnectionTable {
  /// What becomes of a new connection.
  enum Admission: Equatable {
    /// Served, under `id`; `evicting` names the connection closed to make room.
    case admitted(id: Int, evicting: Int?)
    /// Refused: the server is full and no connection may make room.
    case full
    /// Refused: its address already has `maximumPerClient` connections open.
    case clientFull
  }

  /// Where a connection is in its request.
  private enum Phase {
    /// Nothing of a request has arrived: the connection just opened, or answered its last.
    case waiting
    /// Part of a request has arrived.
    case reading
    /// The request has arrived whole and is being answered.
    case busy
  }

  private struct Entry {
    let client: String
    var phase: Phase
    /// When the connection last started waiting: its opening or its last answer.
    var since: Double
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
  var busyCount: Int { entries.values.count { $0.phase != .waiting } }

  /// Admits a connection from `client` at time `now` (seconds). At the limit per client it
  /// evicts the client's own connection waiting longest; at the server's, a connection of a
  /// client holding more than its share, or else the one waiting longest of a client holding
  /// as many as this one or more.
  mutating func admit(client: String, now: Double) -> Admission {
    var evicting: Int?
    if perClient[client, default: 0] >= maximumPerClient {
      // Without a lower limit per client, this is the server's limit, held by this client.
      guard let own = longestWaiting(from: client, now: now) else {
        return maximumPerClient < maximum ? .clientFull : .full
      }
      evicting = own
    } else if entries.count >= maximum {
      let own = perClient[client, default: 0]
      guard
        let any = overShare(than: client)
          ?? longestWaiting(from: nil, holdingAtLeast: own, now: now)
      else { return .full }
      evicting = any
    }
    if let evicting {
      forget(evicting)
      evicted.insert(evicting)
    }
    let id = nextID
    nextID += 1
    entries[id] = Entry(client: client, phase: .waiting, since: now)
    perClient[client, default: 0] += 1
    return .admitted(id: id, evicting: evicting)
  }

  /// The connection waiting longest between requests, and at least `evictionGrace`, from
  /// `client` or from anyone holding `minimum` connections or more.
  private func longestWaiting(from client: String?, holdingAtLeast minimum: Int = 0, now: Double)
    -> Int?
  {
    var found: (id: Int, since: Double)?
    for (id, entry) in entries where client == nil || entry.client == client {
      guard entry.phase == .waiting, entry.since <= now - Self.evictionGrace,
        perClient[entry.client, default: 0] >= minimum,
        entry.since < found?.since ?? .infinity
      else { continue }
      found = (id, entry.since)
    }
    return found?.id
  }

  /// The oldest connection not busy of the address holding the most connections, if that holds
  /// at least two more than `client`: after the swap it still holds as many as `client`, so two
  /// clients never take slots from each other back and forth. No grace: the address that loses
  /// a connection is the one holding most, and its oldest silent or unfinished one is what a
  /// flood of silent connections or slow requests is made of.
  private func overShare(than client: String) -> Int? {
    let own = perClient[client, default: 0]
    var found: (id: Int, held: Int, since: Double)?
    for (id, entry) in entries where entry.phase != .busy {
      let held = perClient[entry.client, default: 0]
      guard held >= own + 2 else { continue }
      if let found, found.held > held || (found.held == held && found.since <= entry.since) {
        continue
      }
      found = (id, held, entry.since)
    }
    return found?.id
  }

  /// Marks `id` as reading a request, so that it is closed to make room only for a client
  /// holding fewer connections than its own; false when it was evicted already, and must close
  /// without serving: it no longer counts against the limits.
  mutating func reading(_ id: Int) -> Bool {
    guard entries[id] != nil else { return false }
    entries[id]?.phase = .reading
    return true
  }

  /// Marks `id` as answering a request, so it is not evicted until it waits again; false when
  /// it was evicted already, and must close without serving.
  mutating func busy(_ id: Int) -> Bool {
    guard entries[id] != nil else { return false }
    entries[id]?.phase = .busy
    return true
  }

  /// Marks `id` as waiting for its next request since `now`.
  mutating func idle(_ id: Int, now: Double) {
    entries[id]?.phase = .waiting
    entries[id]?.since = now
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

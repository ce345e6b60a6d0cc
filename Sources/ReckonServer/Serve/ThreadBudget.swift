import ReckonEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the process may start a thread for every connection `server.maxConnections` allows:
/// the HTTP server gives each connection its own thread, and past the user's limit on processes
/// and threads (`ulimit -u`) a new one fails, as a flood would find out.
enum ThreadBudget {
  /// Threads the process needs besides its connections: accepting, Swift's pool, the sender,
  /// the retry and policy loops, libcurl's workers, with room to spare.
  static let ownThreads = 64

  /// The soft limit on the user's processes and threads, nil when there is none.
  static func userLimit() -> Int? {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(__RLIMIT_NPROC.rawValue)
    #else
      let resource = RLIMIT_NPROC
    #endif
    guard getrlimit(resource, &limit) == 0,
      limit.rlim_cur != rlim_t.max
    else { return nil }
    return Int(clamping: limit.rlim_cur)
  }

  /// Refuses a `maximumConnections` that, with the process's own threads, passes `limit`.
  static func check(maximumConnections: Int, limit: Int?) throws(ConfigurationError) {
    guard let limit, maximumConnections + ownThreads > limit else { return }
    throw ConfigurationError(
      "server.maxConnections",
      "\(maximumConnections) connections take a thread each, and with the \(ownThreads) the "
        + "process keeps for itself that is more than the \(limit) processes and threads this "
        + "user may run (ulimit -u); lower maxConnections to at most \(max(0, limit - ownThreads)) "
        + "or raise the limit")
  }
}

import Foundation

/// Timing for benchmarks: the calling thread's CPU time, so other work on a shared machine
/// disturbs the figures less than wall time would.
enum Stopwatch {
  /// CPU seconds the calling thread spent in `body`.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = threadCPUSeconds()
    try body()
    return threadCPUSeconds() - start
  }

  /// Wall-clock seconds taken by `body`, for work that waits on other processes.
  static func wallSeconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// CPU seconds (user and system) the whole process has spent so far, on every thread.
  static func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }

  /// CPU seconds the calling thread has spent so far.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The median of `runs` timings of `body`, in seconds.
  static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var timings: [Double] = []
    for _ in 0..<runs { timings.append(try seconds(body)) }
    timings.sort()
    return timings[timings.count / 2]
  }
}

import CZstd
import Synchronization

/// zstd's compression and decompression contexts, kept for reuse: a new context allocates and
/// sets up its tables afresh, which for a value of a few kilobytes costs about as much as
/// compressing it. At most `limit` of each are kept; more are made while more are in use.
final class ZstandardContexts: Sendable {
  /// The contexts every `Zstandard` call shares.
  static let shared = ZstandardContexts()

  private let compressors = Mutex<[Context]>([])
  private let decompressors = Mutex<[Context]>([])
  private let limit: Int

  init(limit: Int = 8) { self.limit = limit }

  deinit {
    for context in compressors.withLock({ $0 }) { ZSTD_freeCCtx(context.pointer) }
    for context in decompressors.withLock({ $0 }) { ZSTD_freeDCtx(context.pointer) }
  }

  /// `body` with a compression context that has no parameters or prefix left from its last use.
  func withCompressor<Result>(_ body: (OpaquePointer) -> Result) -> Result {
    let context =
      compressors.withLock { $0.popLast() }
      ?? Context(ZSTD_createCCtx() ?? { preconditionFailure("zstd is out of memory") }())
    defer {
      ZSTD_CCtx_reset(context.pointer, ZSTD_reset_session_and_parameters)
      if !keep(context, in: compressors) { ZSTD_freeCCtx(context.pointer) }
    }
    return body(context.pointer)
  }

  /// `body` with a decompression context that has no prefix left from its last use.
  func withDecompressor<Result>(_ body: (OpaquePointer) -> Result) -> Result {
    let context =
      decompressors.withLock { $0.popLast() }
      ?? Context(ZSTD_createDCtx() ?? { preconditionFailure("zstd is out of memory") }())
    defer {
      ZSTD_DCtx_reset(context.pointer, ZSTD_reset_session_and_parameters)
      if !keep(context, in: decompressors) { ZSTD_freeDCtx(context.pointer) }
    }
    return body(context.pointer)
  }

  /// The number of compression and of decompression contexts kept now.
  var kept: (compressors: Int, decompressors: Int) {
    (compressors.withLock { $0.count }, decompressors.withLock { $0.count })
  }

  private func keep(_ context: Context, in pool: borrowing Mutex<[Context]>) -> Bool {
    pool.withLock { contexts in
      guard contexts.count < limit else { return false }
      contexts.append(context)
      return true
    }
  }

  /// A context no other thread uses while it is out of the pool.
  private struct Context: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
  }
}

import CZstd
import Foundation

/// Zstandard for what a state stores compressed (facts and explanations, packed
/// notifications): the original length first, as a varint, then one zstd frame with its
/// checksum, so a damaged value is refused rather than read short. A prefix (bytes the value
/// likely repeats, stored beside it) makes a small value smaller still; the same one must be
/// given to read it back. Rows written before it read back through `Deflated`.
public enum Zstandard {
  /// `data`, compressed at zstd's default level, referring back into `prefix` when given.
  public static func compress(_ data: Data, prefix: Data? = nil) -> Data {
    guard let context = ZSTD_createCCtx() else { preconditionFailure("zstd is out of memory") }
    defer { ZSTD_freeCCtx(context) }
    var status = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
    var compressed = [UInt8](repeating: 0, count: ZSTD_compressBound(data.count))
    withBytes(of: prefix) { prefix in
      if ZSTD_isError(status) == 0, prefix.count > 0 {
        status = ZSTD_CCtx_refPrefix(context, prefix.baseAddress, prefix.count)
      }
      guard ZSTD_isError(status) == 0 else { return }
      status = data.withUnsafeBytes { source in
        compressed.withUnsafeMutableBytes { target in
          ZSTD_compress2(
            context, target.baseAddress, target.count, source.baseAddress, source.count)
        }
      }
    }
    // Compressing into zstd's bound fails only out of memory, which cannot be answered here:
    // stored anyway, the value would be read back as damaged.
    precondition(ZSTD_isError(status) == 0, "zstd compression failed: \(errorName(status))")
    var output = Data()
    VarInt.append(UInt64(data.count), to: &output)
    output.append(contentsOf: compressed[..<status])
    return output
  }

  /// What `compress` compressed with the same `prefix`; throws for anything else.
  public static func decompress(
    _ data: Data, prefix: Data? = nil, what: @autoclosure () -> String
  ) throws(StateError) -> Data {
    var offset = data.startIndex
    let length = try VarInt.readLength(data, at: &offset, what: what())
    guard let context = ZSTD_createDCtx() else { preconditionFailure("zstd is out of memory") }
    defer { ZSTD_freeDCtx(context) }
    // One byte over the length, so a frame longer than its recorded length is caught.
    var output = [UInt8](repeating: 0, count: length + 1)
    let input = data[offset...]
    var status = 0
    withBytes(of: prefix) { prefix in
      if prefix.count > 0 {
        status = ZSTD_DCtx_refPrefix(context, prefix.baseAddress, prefix.count)
      }
      guard ZSTD_isError(status) == 0 else { return }
      status = input.withUnsafeBytes { source in
        output.withUnsafeMutableBytes { target in
          ZSTD_decompressDCtx(
            context, target.baseAddress, target.count, source.baseAddress, source.count)
        }
      }
    }
    guard ZSTD_isError(status) == 0, status == length else {
      let reason = ZSTD_isError(status) != 0 ? errorName(status) : "\(status) bytes, not \(length)"
      throw .unreadableRow(what: what(), reason: "its compressed bytes are damaged (\(reason))")
    }
    return Data(output[..<length])
  }

  /// `body` with the bytes of `data`, or with an empty buffer when there is none.
  private static func withBytes(of data: Data?, _ body: (UnsafeRawBufferPointer) -> Void) {
    guard let data else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    data.withUnsafeBytes(body)
  }

  private static func errorName(_ code: Int) -> String { String(cString: ZSTD_getErrorName(code)) }
}

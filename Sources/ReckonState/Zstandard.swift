import CZstd
import Foundation

/// Zstandard for what a state stores compressed (facts and explanations, packed
/// notifications): the original length first, as a varint, then one zstd frame with its
/// checksum, so a damaged value is refused rather than read short. A prefix (bytes the value
/// likely repeats, stored beside it) makes a small value smaller still; the same one must be
/// given to read it back. Rows written before it read back through `Deflated`.
public enum Zstandard {
  /// zstd's fastest regular level. A state's values are a few KB each, and at these sizes
  /// level 1 stores them as small as the default level 3 does, in less time.
  static let level: Int32 = 1

  /// `data`, compressed at `level`, referring back into `prefix` when given.
  public static func compress(_ data: Data, prefix: Data? = nil) -> Data {
    var output = Data()
    VarInt.append(UInt64(data.count), to: &output)
    let header = output.count
    output.count = header + ZSTD_compressBound(data.count)
    let status = ZstandardContexts.shared.withCompressor { context in
      var status = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
      if ZSTD_isError(status) == 0 {
        status = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
      }
      withBytes(of: prefix) { prefix in
        if ZSTD_isError(status) == 0, prefix.count > 0 {
          status = ZSTD_CCtx_refPrefix(context, prefix.baseAddress, prefix.count)
        }
        guard ZSTD_isError(status) == 0 else { return }
        status = data.withUnsafeBytes { source in
          output.withUnsafeMutableBytes { target in
            ZSTD_compress2(
              context, target.baseAddress! + header, target.count - header, source.baseAddress,
              source.count)
          }
        }
      }
      return status
    }
    // Compressing into zstd's bound fails only out of memory, which cannot be answered here:
    // stored anyway, the value would be read back as damaged.
    precondition(ZSTD_isError(status) == 0, "zstd compression failed: \(errorName(status))")
    output.count = header + status
    return output
  }

  /// What `compress` compressed with the same `prefix`; throws for anything else.
  public static func decompress(
    _ data: Data, prefix: Data? = nil, what: @autoclosure () -> String
  ) throws(StateError) -> Data {
    var offset = data.startIndex
    let length = try VarInt.readLength(data, at: &offset, what: what())
    // One byte over the length, so a frame longer than its recorded length is caught.
    var output = Data(count: length + 1)
    let input = data[offset...]
    let status = ZstandardContexts.shared.withDecompressor { context in
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
      return status
    }
    guard ZSTD_isError(status) == 0, status == length else {
      let reason = ZSTD_isError(status) != 0 ? errorName(status) : "\(status) bytes, not \(length)"
      throw .unreadableRow(what: what(), reason: "its compressed bytes are damaged (\(reason))")
    }
    output.count = length
    return output
  }

  /// `body` with the bytes of `data`, or with an empty buffer when there is none.
  private static func withBytes(of data: Data?, _ body: (UnsafeRawBufferPointer) -> Void) {
    guard let data else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    data.withUnsafeBytes(body)
  }

  private static func errorName(_ code: Int) -> String { String(cString: ZSTD_getErrorName(code)) }
}

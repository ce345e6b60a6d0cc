import Foundation

/// The largest file of one kind Reckon reads whole, so a path that names something huge (a log,
/// a disk image, a file that grows without end) is refused at once, naming the limit, instead of
/// filling memory.
public struct FileSizeLimit: Hashable, Sendable, CustomStringConvertible {
  /// The most bytes read.
  public var bytes: Int
  /// The kind of file, plural, as the error names it: `policy files`.
  public var kind: String
  /// The setting in `reckon.json` that raises it, when one does.
  public var setting: String?

  /// A limit of `bytes` for files of `kind`, raised by `setting` when one is named.
  public init(bytes: Int, kind: String, setting: String? = nil) {
    self.bytes = bytes
    self.kind = kind
    self.setting = setting
  }

  /// Policy and policy tests files: 4 MiB, some 30,000 rules (`limits.policyFileBytes`).
  public static let policy = FileSizeLimit(
    bytes: 4 << 20, kind: "policy files", setting: "limits.policyFileBytes")
  /// JSON facts files, each of a folder's alone: 256 MiB (`limits.factsFileBytes`).
  public static let facts = FileSizeLimit(
    bytes: 256 << 20, kind: "facts files", setting: "limits.factsFileBytes")
  /// `reckon.json` itself, and a request file given to a command: 1 MiB.
  public static let configuration = FileSizeLimit(bytes: 1 << 20, kind: "configuration files")
  /// A key, a certificate or a password file: 64 KiB.
  public static let secret = FileSizeLimit(bytes: 64 << 10, kind: "keys and certificates")
  /// Any other file read whole: 64 MiB.
  public static let other = FileSizeLimit(bytes: 64 << 20, kind: "files read whole")

  /// The limit with `bytes` in place of its own.
  public func raised(to bytes: Int) -> FileSizeLimit {
    var limit = self
    limit.bytes = bytes
    return limit
  }

  /// The limit as the error names it: `the 4 MiB limit for policy files (limits.policyFileBytes)`.
  public var description: String {
    "the \(FileSizeLimit.size(bytes)) limit for \(kind)"
      + (setting.map { " (\($0) raises it)" } ?? "")
  }

  /// A size in the largest binary unit that leaves a whole or one-decimal number: `4 MiB`.
  public static func size(_ bytes: Int) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    if unit == 0 { return "\(bytes) bytes" }
    let rounded = (value * 10).rounded() / 10
    let text =
      rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    return "\(text) \(units[unit])"
  }
}

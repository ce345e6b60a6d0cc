import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonSupport

/// Finds and loads policy files from paths the user gives: files as they are, folders searched
/// (not recursively) for `*.policy`.
public enum PolicyFiles {
  /// Why a path could not be used.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    case notFound(String)
    case unreadable(path: String, reason: String)
    /// A folder holds no file with the extension looked for.
    case emptyFolder(path: String, fileExtension: String)

    /// A sentence naming the path.
    public var description: String {
      switch self {
      case .notFound(let path): "\(path): no such file or folder"
      case .unreadable(let path, let reason): "\(path): \(reason)"
      case .emptyFolder(let path, let fileExtension): "no .\(fileExtension) files in \(path)"
      }
    }
  }

  /// The policy files named by `inputs`, in the order given, folders expanded in name order; a
  /// folder without any such file is refused.
  public static func expand(_ inputs: [String], fileExtension: String = "policy") throws(Failure)
    -> [String]
  {
    var paths: [String] = []
    for input in inputs {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else {
        throw .notFound(input)
      }
      guard isFolder.boolValue else {
        paths.append(input)
        continue
      }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []
      let prefix = input.hasSuffix("/") ? input : input + "/"
      let found = names.filter { $0.hasSuffix("." + fileExtension) }.sorted().map { prefix + $0 }
      // A folder with nothing to check is a mistyped path far more often than intended; passing
      // it would let a CI gate succeed while checking nothing.
      guard !found.isEmpty else { throw .emptyFolder(path: input, fileExtension: fileExtension) }
      paths += found
    }
    return paths
  }

  /// The policy files in `folder` with no tests file of their name beside them, in name order;
  /// none when `folder` is not a folder.
  public static func untestedPolicies(in folder: String) -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
    else { return [] }
    let names = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return names.filter {
      $0.hasSuffix(".policy") && !names.contains(String($0.dropLast(".policy".count)) + ".tests")
    }.sorted().map { prefix + $0 }
  }

  /// `paths` without those naming a file already in `seen` (the same file given twice, as
  /// itself and in its folder, or through a link), which are added to it; order kept.
  public static func dropRepeats(_ paths: [String], seen: inout Set<String>) -> [String] {
    paths.filter {
      seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path)
        .inserted
    }
  }

  /// Reads and loads one policy file against `schema`.
  public static func load(_ path: String, schema: FactSchema = .standard) throws(Failure)
    -> PolicyLoader.Result
  {
    PolicyLoader.load(try read(path), schema: schema.policySchema)
  }

  /// Reads a policy or tests file as bytes; text that is not UTF-8 is left for the lexer to point
  /// at, with a line and column, rather than refused here without saying where.
  /// A PEM file (the `.p8` key, a certificate) named by mistake is refused without a line of it
  /// shown: a diagnostic would quote its base64, half a private key.
  public static func read(_ path: String, limit: FileSizeLimit = .policy) throws(Failure)
    -> SourceFile
  {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.data(at: path, limit: limit) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    if isPEM(data) {
      throw .unreadable(
        path: path,
        reason: "this is a PEM file (a key or a certificate), not a policy; none of it is shown")
    }
    return SourceFile(path: path, contents: Array(data))
  }

  /// Whether a line of `data` (up to its first 64 KB) starts a PEM block: a file may open with
  /// a byte-order mark or with `openssl pkcs12`'s `Bag Attributes` lines before the key.
  static func isPEM(_ data: Data) -> Bool {
    let marker = Array("-----BEGIN ".utf8)
    let bytes = Array(data.prefix(65_536))
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count {
      var position = start
      while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 {
        position += 1
      }
      if bytes[position...].starts(with: marker) { return true }
      guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return false }
      start = newline + 1
    }
    return false
  }
}

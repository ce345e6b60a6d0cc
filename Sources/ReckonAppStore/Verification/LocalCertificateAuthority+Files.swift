import Foundation

extension LocalCertificateAuthority {
  /// The files an authority is kept in: the root to trust, the chain, and the signing key.
  public enum FileName {
    /// The root certificate, to list in `trust.roots`.
    public static let root = "root.pem"
    /// The intermediate certificate.
    public static let intermediate = "intermediate.pem"
    /// The leaf certificate that signs payloads.
    public static let leaf = "leaf.pem"
    /// The leaf's private key (mode 0600).
    public static let leafKey = "leaf-key.pem"
  }

  /// Why an authority could not be written or read back.
  public enum FileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)
    /// A file is missing or not what it should be.
    case unreadable(path: String)

    /// A sentence naming the file.
    public var description: String {
      switch self {
      case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
      case .unreadable(let path):
        "\(path) is missing or unreadable; create the authority with 'reckon simulate --init-ca DIR'"
      }
    }
  }

  /// Writes the certificates and the leaf key into `directory` (created if needed); the key file
  /// is readable by its owner only.
  public func write(to directory: String) throws(FileError) {
    let folder = URL(fileURLWithPath: directory)
    let files: [(String, Data, Int)] = [
      (FileName.root, root.pem(), 0o644), (FileName.intermediate, intermediate.pem(), 0o644),
      (FileName.leaf, leaf.pem(), 0o644), (FileName.leafKey, signer.key.pkcs8PEM(), 0o600),
    ]
    for (name, data, mode) in files {
      let path = folder.appendingPathComponent(name).path
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard
          FileManager.default.createFile(
            atPath: path, contents: nil, attributes: [.posixPermissions: mode])
        else { throw CocoaError(.fileWriteNoPermission) }
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        try data.write(to: URL(fileURLWithPath: path))
      } catch {
        throw .cannotWrite(path: path, reason: error.localizedDescription)
      }
    }
  }

  /// Reads back an authority written by `write(to:)`.
  public init(directory: String) throws(FileError) {
    let folder = URL(fileURLWithPath: directory)
    func certificate(_ name: String) throws(FileError) -> X509Certificate {
      let path = folder.appendingPathComponent(name).path
      guard let data = FileManager.default.contents(atPath: path),
        let certificate = X509Certificate(pemOrDER: data)
      else { throw .unreadable(path: path) }
      return certificate
    }
    let keyPath = folder.appendingPathComponent(FileName.leafKey).path
    guard let keyData = FileManager.default.contents(atPath: keyPath),
      let key = try? PrivateKey(pem: keyData, source: keyPath)
    else { throw .unreadable(path: keyPath) }
    self.root = try certificate(FileName.root)
    self.intermediate = try certificate(FileName.intermediate)
    self.leaf = try certificate(FileName.leaf)
    self.signer = ES256Signer(key: key)
  }
}

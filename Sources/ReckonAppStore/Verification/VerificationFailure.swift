/// Why a signed payload was refused. A refused notification is never decided on.
public enum VerificationFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// Not three base64url parts, or a header or payload that is not JSON.
  case malformed(String)
  /// The header's `alg` is not ES256 (e.g. `none` or `HS256`).
  case unsupportedAlgorithm(String)
  /// The header's `x5c` is missing or does not hold exactly three certificates.
  case invalidCertificateList(String)
  /// A certificate lacks the extension Apple marks it with.
  case missingAppleOID(certificate: String, oid: String)
  /// The chain does not lead to a configured root.
  case untrustedChain(String)
  /// A certificate was expired or not yet valid when the payload was signed.
  case certificateNotValidAtSigningTime(String)
  /// The signature does not match the header and payload.
  case invalidSignature
  /// The payload is for another app.
  case wrongBundleId(expected: String, found: String?)
  /// The payload is for another App Apple ID (checked in Production).
  case wrongAppAppleId(expected: Int64, found: Int64?)
  /// The payload is from an environment this configuration does not accept.
  case wrongEnvironment(expected: String, found: String?)
  /// The payload carries none of `data`, `summary`, `externalPurchaseToken` or `appData`, so it
  /// names no app.
  case noApp
  /// The signed transaction names another bundle or environment than its own notification.
  case transactionMismatch(field: String, notification: String, transaction: String?)

  /// Whether the payload verified but names an app, App Apple ID or environment that is not
  /// among the accepted ones: it is whose that is wrong, not the payload (a transaction that
  /// disagrees with its own notification is the payload's fault, `transactionMismatch`).
  public var isAnotherApp: Bool {
    switch self {
    case .wrongBundleId, .wrongAppAppleId, .wrongEnvironment: true
    default: false
    }
  }

  /// One sentence for logs and the webhook's answer.
  public var description: String {
    switch self {
    case .malformed(let detail): "malformed signed payload: \(detail)"
    case .unsupportedAlgorithm(let alg):
      "unsupported signing algorithm '\(alg)'; Apple signs with ES256"
    case .invalidCertificateList(let detail): "invalid x5c certificate list: \(detail)"
    case .missingAppleOID(let certificate, let oid):
      "the \(certificate) certificate lacks Apple's extension \(oid)"
    case .untrustedChain(let reason): "certificate chain not trusted: \(reason)"
    case .certificateNotValidAtSigningTime(let reason):
      "certificate not valid when the payload was signed: \(reason)"
    case .invalidSignature: "the signature does not match the payload"
    case .wrongBundleId(let expected, let found):
      "bundle id \(found ?? "missing") is not \(expected)"
    case .wrongAppAppleId(let expected, let found):
      "appAppleId \(found.map(String.init) ?? "missing") is not \(expected)"
    case .wrongEnvironment(let expected, let found):
      "environment \(found ?? "missing") is not \(expected)"
    case .noApp:
      "the notification carries none of data, summary, externalPurchaseToken or appData, so it names no app"
    case .transactionMismatch(let field, let notification, let transaction):
      "the signed transaction's \(field) \(transaction ?? "missing") is not its notification's \(notification)"
    }
  }
}

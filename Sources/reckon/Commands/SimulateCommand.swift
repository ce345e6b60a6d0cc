import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonHTTP
import ReckonSupport

/// `reckon simulate`: a local test CA, and notifications signed by it POSTed to a server.
enum SimulateCommand: Command {
  static let name = "simulate"
  static let summary = "Create a local test CA, or POST a notification signed by it to a server"
  static let options: [CommandOption] = [
    CommandOption("init-ca", value: "DIR"),
    CommandOption("force"),
    CommandOption("ca", value: "DIR"),
    CommandOption("url", value: "URL"),
    CommandOption("type", value: "TYPE"),
    CommandOption("reason", value: "REASON"),
    CommandOption("product-type", value: "TYPE"),
    CommandOption("transaction-id", value: "ID"),
    CommandOption("bundle-id", value: "ID"),
    CommandOption("app-apple-id", value: "N"),
    CommandOption("environment", value: "ENV"),
    CommandOption("app-account-token", value: "UUID"),
    CommandOption("notification-uuid", value: "UUID"),
    CommandOption("init-identity", value: "DIR"),
    CommandOption("identity", value: "DIR"),
    CommandOption("config", value: "reckon.json"),
    CommandOption("order-id", value: "ID"),
    CommandOption("refund-token", value: "TOKEN"),
    CommandOption("play-reason", value: "REASON"),
    CommandOption("account-id", value: "ID"),
    CommandOption("package", value: "NAME"),
    CommandOption("voided"),
  ]
  static let help = """
    Usage: reckon simulate --init-ca DIR [--force]
           reckon simulate --ca DIR --url URL [--type TYPE] [--reason REASON]
                  [--product-type TYPE] [--transaction-id ID] [--bundle-id ID]
                  [--app-apple-id N] [--environment ENV] [--app-account-token UUID]
                  [--notification-uuid UUID]

    --init-ca DIR   writes a local CA shaped like Apple's: root.pem (list it in trust.roots of
                    the server's reckon.json), intermediate.pem, leaf.pem and leaf-key.pem (0600).
                    For tests and demos only; never trust it in production. A CA already in
                    DIR is kept (servers trust it, replies may wait on it) unless --force.
    --ca DIR        signs with the CA in DIR and POSTs {"signedPayload": ...} to --url, then
                    prints the HTTP status and the answer. Defaults describe the bundled example:
                    CONSUMPTION_REQUEST, reason UNINTENDED_PURCHASE, CONSUMABLE, transaction
                    2000000812345678 of com.example.coins (appAppleId 1234567890) in Production.
    --type          CONSUMPTION_REQUEST, REFUND, REFUND_DECLINED, REFUND_REVERSED, REVOKE, ...
    --product-type  CONSUMABLE, NON_CONSUMABLE, AUTO_RENEWABLE, NON_RENEWING (or Apple's names)

    Google Play:
           reckon simulate --init-identity DIR [--force]
           reckon simulate --identity DIR --url URL [--config reckon.json] [--order-id ID]
                  [--refund-token TOKEN] [--play-reason REASON] [--account-id ID]
                  [--package NAME] [--voided]

    --init-identity DIR  writes a local stand-in for Google's OpenID signer: identity-key.pem
                    (0600) and keys.json (name it in googlePlay.push.keysFile, with refreshKeys
                    false). For tests and demos only.
    --identity DIR  POSTs a Pub/Sub push of a pending refund review (a voided purchase with
                    --voided) to --url, with an OIDC token signed by the identity in DIR for the
                    audience and service account of googlePlay.push in --config. Defaults: the
                    first Google Play app of --config, order GPA.3312-5841-2290-11234, token
                    prt-demo-1, reason FRIENDLY_FRAUD.
    """

  static let exitStatuses: [(code: Int32, meaning: String)] = [
    (0, "the server answered 2xx"),
    (1, "it did not, or could not be reached"),
  ]

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    if let directory = arguments.option("init-identity") {
      let force = arguments.flag("force")
      try arguments.rejectUnknown()
      let key = URL(fileURLWithPath: directory).appendingPathComponent(
        LocalGoogleIdentity.FileName.key)
      guard force || !FileManager.default.fileExists(atPath: key.path) else {
        throw UsageError(
          "\(key.path) exists and would be replaced; choose another folder, or give --force")
      }
      try LocalGoogleIdentity().write(to: directory)
      console.out(
        "wrote a local OpenID signer to \(directory); name \(directory)/\(LocalGoogleIdentity.FileName.keys) in googlePlay.push.keysFile"
      )
      return 0
    }
    if let directory = arguments.option("identity") {
      return try await GooglePlayPush(directory: directory, arguments: &arguments).post(console)
    }
    if let directory = arguments.option("init-ca") {
      let force = arguments.flag("force")
      try arguments.rejectUnknown()
      let names = [
        LocalCertificateAuthority.FileName.root, LocalCertificateAuthority.FileName.intermediate,
        LocalCertificateAuthority.FileName.leaf, LocalCertificateAuthority.FileName.leafKey,
      ]
      let existing = names.map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
        .filter { FileManager.default.fileExists(atPath: $0) }
      // A server trusting the old root would refuse every notification the new one signs.
      guard force || existing.isEmpty else {
        throw UsageError(
          "these files exist and would be replaced: \(existing.joined(separator: ", ")); choose another folder, or give --force to replace the CA (servers trusting the old root then refuse what the new one signs)"
        )
      }
      let authority = try LocalCertificateAuthority(name: "Reckon Simulate")
      try authority.write(to: directory)
      console.out(
        "wrote a local CA to \(directory); trust \(directory)/\(LocalCertificateAuthority.FileName.root) in trust.roots"
      )
      return 0
    }
    guard !arguments.flag("force") else {
      throw UsageError("--force only goes with --init-ca (replacing a CA already in DIR)")
    }
    let authority = try LocalCertificateAuthority(directory: try arguments.required("ca"))
    guard let url = URL(string: try arguments.required("url")) else {
      throw UsageError("--url must be a URL such as http://127.0.0.1:8080/apple/notifications")
    }
    let notification = try notification(&arguments)
    try arguments.rejectUnknown()
    // The client the sender uses: http and https only, certificates checked, no redirects.
    let response = try await CurlHTTPClient(timeout: 30, maximumConnections: 1).perform(
      HTTPClientRequest(
        method: "POST", url: url, headers: [("Content-Type", "application/json")],
        body: try notification.body(signedBy: authority)))
    console.out(
      "\(notification.type) \(notification.notificationUUID) for transaction \(notification.transactionId): HTTP \(response.status) \(String(decoding: response.body, as: UTF8.self))"
    )
    return (200..<300).contains(response.status) ? 0 : 1
  }

  private static func notification(_ arguments: inout Arguments) throws(UsageError)
    -> SimulatedNotification
  {
    var notification = SimulatedNotification()
    if let type = arguments.option("type") { notification.type = type }
    if let reason = arguments.option("reason") {
      guard ConsumptionRequestReason(rawValue: reason) != nil else {
        throw UsageError(
          "--reason must be one of \(ConsumptionRequestReason.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      notification.reason = reason
    }
    if let type = arguments.option("product-type") {
      guard let product = ProductType(rawValue: type) ?? ProductType(policyName: type) else {
        throw UsageError(
          "--product-type must be CONSUMABLE, NON_CONSUMABLE, AUTO_RENEWABLE or NON_RENEWING")
      }
      notification.productType = product.rawValue
    }
    if let id = arguments.option("transaction-id") { notification.transactionId = id }
    if let id = arguments.option("bundle-id") { notification.bundleId = id }
    if let environment = arguments.option("environment") { notification.environment = environment }
    if let token = arguments.option("app-account-token") { notification.appAccountToken = token }
    if let uuid = arguments.option("notification-uuid") { notification.notificationUUID = uuid }
    if let id = arguments.option("app-apple-id") {
      guard let number = Int64(id) else { throw UsageError("--app-apple-id must be a number") }
      notification.appAppleId = number
    }
    return notification
  }
}

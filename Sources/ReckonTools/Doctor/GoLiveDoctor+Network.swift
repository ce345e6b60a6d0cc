import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonGooglePlay
import ReckonSupport

extension GoLiveDoctor {
  /// How far this machine's clock may be from Apple's: tokens are dated a minute back, and a
  /// reply's deadline is Apple's clock plus the window, so half that minute is the margin.
  static let clockTolerance: TimeInterval = 30

  /// How long one request of these checks may take, in seconds.
  public static let requestTimeout: TimeInterval = 10

  /// The webhook URL, when given, then the clock against the store's API (or the URL's answer).
  func networkChecks(_ configuration: ReckonConfiguration) async -> [DoctorCheck] {
    var fromURL: ClockReading?
    let url: DoctorCheck
    let webhooks = Webhook.all(configuration)
    if let webhook = options.webhookURL {
      (url, fromURL) = await webhookCheck(webhook, webhooks)
    } else {
      let which = webhooks.map { "the URL \($0.poster) to (https://HOST\($0.path))" }
      url = .skip(
        "webhook url",
        "no --url given: pass \(which.joined(separator: " or ")) to try it from here")
    }
    return [url, await clockCheck(configuration, fromURL: fromURL)]
  }

  /// A path a store posts to, as configured.
  struct Webhook {
    /// The path `reckon serve` answers on.
    let path: String
    /// The configuration key that sets it.
    let key: String
    /// Who posts there, for sentences such as "the URL … to".
    let poster: String

    /// The webhooks of the stores that have apps: the App Store's, then Google Play's.
    static func all(_ configuration: ReckonConfiguration) -> [Webhook] {
      var webhooks: [Webhook] = []
      // A configuration lists at least one app, so one without App Store apps has Google's.
      if !configuration.apps.isEmpty {
        webhooks.append(
          Webhook(
            path: configuration.server.webhookPath, key: "server.webhookPath",
            poster: "App Store Connect posts"))
      }
      if let googlePlay = configuration.googlePlay, !configuration.googlePlayApps.isEmpty {
        webhooks.append(
          Webhook(
            path: googlePlay.pushPath, key: "googlePlay.push.path",
            poster: "Google Play's Pub/Sub subscription pushes"))
      }
      return webhooks
    }
  }

  /// A GET on the URL Apple posts to reaches `reckon serve`: its webhook answers anything but a
  /// POST with 405 and `Allow: POST` (a POST would be a notification, and logged as refused);
  /// `/healthz` answers 200 while the service is up.
  private func webhookCheck(_ url: URL, _ webhooks: [Webhook]) async -> (
    DoctorCheck, ClockReading?
  ) {
    let name = "webhook url"
    let scheme = url.scheme?.lowercased()
    guard scheme == "https" || (scheme == "http" && Self.isLoopback(url.host)) else {
      let posters = webhooks.map(\.poster).joined(separator: " and ")
      return (
        .fail(
          name,
          "\(url.absoluteString): \(posters) to https URLs only (http is tried on loopback only)"),
        nil
      )
    }
    let sent = now()
    let response: HTTPClientResponse
    do { response = try await get(url) } catch {
      return (.fail(name, "cannot reach \(url.absoluteString): \(error.description)"), nil)
    }
    let reading = ClockReading(
      source: url.absoluteString, dateHeader: response.header("Date"), sent: sent,
      received: now())
    return (webhookVerdict(url, response, webhooks), reading)
  }

  private func webhookVerdict(_ url: URL, _ response: HTTPClientResponse, _ webhooks: [Webhook])
    -> DoctorCheck
  {
    let configured = webhooks.map { "\($0.key) is \($0.path)" }.joined(separator: ", ")
    let name = "webhook url"
    let shown = url.absoluteString
    if url.path.hasSuffix("/healthz") {
      guard response.status == 200 else {
        return .fail(name, "\(shown) answers \(response.status): \(Self.excerpt(response.body))")
      }
      return .ok(name, "\(shown) answers 200: \(Self.excerpt(response.body))")
    }
    let allow = response.header("Allow") ?? ""
    if response.status == 405, allow.uppercased().contains("POST") {
      let mapped =
        webhooks.contains { $0.path == url.path }
        ? "" : " (\(configured): the proxy must map \(url.path) to it)"
      return .ok(
        name,
        "\(shown) reaches a webhook that takes POST only (405 to a GET, Allow: \(allow))"
          + mapped)
    }
    let why =
      switch response.status {
      case 404: "nothing takes notifications there (\(configured))"
      case 502, 503, 504: "the proxy in front cannot reach reckon serve"
      default: "reckon serve's webhook answers a GET 405 with Allow: POST"
      }
    return .fail(name, "\(shown) answers \(response.status) to a GET: \(why)")
  }

  /// The clock against the store API's `Date` header (the clock tokens and deadlines must agree
  /// with): the App Store's, or Google Play's for Google Play apps alone; else the webhook URL's.
  /// Skipped, saying so, when neither answered.
  private func clockCheck(_ configuration: ReckonConfiguration, fromURL: ClockReading?) async
    -> DoctorCheck
  {
    let name = "clock"
    let googlePlayOnly = configuration.apps.isEmpty
    let storeName = googlePlayOnly ? "Google Play" : "the App Store"
    var unreached = "--offline: \(storeName) was not asked"
    var reading: ClockReading?
    if !options.offline {
      let store =
        googlePlayOnly ? Self.googlePlayURL(configuration) : Self.appStoreURL(configuration)
      let sent = now()
      do {
        let response = try await get(store)
        reading = ClockReading(
          source: store.absoluteString, dateHeader: response.header("Date"), sent: sent,
          received: now())
        unreached = "\(store.absoluteString) answered without a Date header"
      } catch {
        unreached = "offline: \(store.absoluteString) cannot be reached (\(error.description))"
      }
    }
    guard let reading = reading ?? fromURL else {
      return .skip(name, "\(unreached), and no --url answered with a Date: not compared")
    }
    guard abs(reading.skew) <= Self.clockTolerance else {
      return .fail(
        name,
        "this machine \(reading.described): more than \(Int(Self.clockTolerance)) s, so "
          + "\(googlePlayOnly ? "Google" : "Apple") may refuse its tokens (dated a minute back) "
          + "or get replies after their deadline; "
          + "keep it in time with NTP (systemd-timesyncd, chrony)")
    }
    return .ok(name, "this machine \(reading.described)")
  }

  /// The App Store host the first app's replies go to: `appStore.baseURL`, else Apple's.
  static func appStoreURL(_ configuration: ReckonConfiguration) -> URL {
    if let configured = configuration.appStoreKey?.baseURL.flatMap(URL.init(string:)) {
      return configured
    }
    return configuration.apps.first?.environment == .production
      ? AppStoreAPIClient.productionURL : AppStoreAPIClient.sandboxURL
  }

  /// The Google Play host answers go to: `googlePlay.baseURL`, else Google's.
  static func googlePlayURL(_ configuration: ReckonConfiguration) -> URL {
    configuration.googlePlay?.baseURL.flatMap(URL.init(string:))
      ?? GooglePlayAPIClient.productionURL
  }

  private func get(_ url: URL) async throws(HTTPTransportError) -> HTTPClientResponse {
    try await transport.perform(
      HTTPClientRequest(
        method: "GET", url: url, deadline: now().addingTimeInterval(Self.requestTimeout)))
  }

  /// Whether `host` is this machine: `localhost`, 127.x.y.z or ::1.
  static func isLoopback(_ host: String?) -> Bool {
    guard let host = host?.lowercased() else { return false }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    return host == "localhost" || host == "::1" || host == "[::1]"
      || (octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil })
  }

  /// The start of a body, on one line, for a detail.
  static func excerpt(_ body: Data) -> String {
    let text = String(decoding: body.prefix(200), as: UTF8.self)
      .split(whereSeparator: \.isNewline).joined(separator: " ")
    return text.isEmpty ? "(no body)" : text
  }
}

/// Sends one HTTP request and returns the whole response: the seam between the store clients
/// and the network, which ReckonHTTP's libcurl client implements and a test may replace.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and waits for the whole response, without blocking the caller's thread.
  func perform(_ request: HTTPClientRequest) async throws(HTTPTransportError) -> HTTPClientResponse
}

import ReckonEngine
import ReckonHTTP

extension HTTPServer.Configuration {
  /// The listener `reckon.json`'s `server` section asks for.
  public init(_ server: ServerConfiguration, readTimeout: Double = 10) {
    self.init(
      host: server.host, port: server.port,
      limits: .init(maximumBodyBytes: server.maximumBodyBytes), readTimeout: readTimeout,
      maximumConnections: server.maximumConnections,
      maximumConnectionsPerClient: server.maximumConnectionsPerClient)
  }
}

import Foundation
import ReckonState
import Testing

@testable import ReckonStatePostgres

#if canImport(Glibc)
  import Glibc
#endif

/// A server that stalls (its machine frozen while the kernel still acknowledges) holds up the
/// lead's refresh as long as it stalls, but not what probes read, nor a stop.
struct PostgresLeaderLeaseTests {
  @Test func aStalledServerHoldsUpNeitherTheLeadsReadNorItsRelease() throws {
    let listener = try SilentListener()
    defer { listener.close() }
    let lease = PostgresLeaderLease(
      address: try PostgresAddress(url: "postgres://reckon@127.0.0.1:\(listener.port)/reckon"))
    let refreshed = DispatchSemaphore(value: 0)
    Thread {
      _ = lease.refresh()
      refreshed.signal()
    }.start()
    // The refresh is waiting for the server's answer to its connection.
    #expect(refreshed.wait(timeout: .now() + 0.5) == .timedOut)
    let started = Date()
    #expect(!lease.isLeader)
    #expect(Date().timeIntervalSince(started) < 0.5)
    lease.release()
    #expect(Date().timeIntervalSince(started) < PostgresLeaderLease.releaseWait + 1)
    #expect(!lease.isLeader)
  }
}

/// A TCP listener on loopback that never accepts: the kernel completes each connection, and no
/// byte ever comes back.
private struct SilentListener {
  let descriptor: Int32
  let port: Int

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, listen(descriptor, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    self.descriptor = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  func close() { _ = Glibc.close(descriptor) }
}

import Foundation
import ReckonEngine
import ReckonState

extension GoLiveDoctor {
  /// The state opens as `reckon serve` opens it and takes a write that leaves nothing behind
  /// (the one `/healthz` makes after a failed write: a row added and removed, committed). A state
  /// file not made yet is not made here — run as another user, that would leave the service a
  /// file it cannot write — its folder is shown writable instead.
  func stateCheck(_ configuration: ReckonConfiguration) -> DoctorCheck {
    let opener = stateOpener(configuration)
    let location = configuration.stateLocation
    let store: any StateStore
    do throws(StateError) {
      try opener.check(location: location)
      store = try opener.open(
        location: location, durability: configuration.stateDurability, rules: .appStore,
        access: .existing)
    } catch .noSuchFile {
      return folderCheck(location)
    } catch .noStateYet {
      // A database server answers; a file made ahead of the service is merely empty.
      let found =
        configuration.stateIsDatabaseServer ? "answers and holds" : "is a file that holds"
      return .ok(
        "state",
        "\(location) \(found) no Reckon state yet; reckon serve makes its tables at its "
          + "first start (its user must be allowed to create them)")
    } catch {
      return .fail("state", error.description)
    }
    do throws(StateError) {
      try store.checkWritable()
      let schema = try store.schemaVersion()
      return .ok(
        "state",
        "\(location) opens (schema \(schema)) and took a write that left nothing behind")
    } catch {
      // Every notification would be answered 500 while this lasts (Apple retries for days).
      return .fail(
        "state",
        "\(location) opens but takes no write (a full disk, a read-only file, another process "
          + "holding its write lock): \(error.description)")
    }
  }

  /// A state file's folder takes a new file: a probe made with `O_EXCL` and removed at once.
  private func folderCheck(_ location: String) -> DoctorCheck {
    let folder = URL(fileURLWithPath: location).deletingLastPathComponent().path
    let probe = folder + "/.reckon-doctor-\(UUID().uuidString)"
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      return .fail(
        "state",
        "\(location) does not exist, and this user cannot create a file in \(folder) "
          + "(\(reason)): reckon serve could not make it there")
    }
    close(descriptor)
    unlink(probe)
    return .ok(
      "state",
      "\(location) does not exist yet; its folder takes new files, so reckon serve makes it "
        + "at its first start (run this as the service's user)")
  }
}

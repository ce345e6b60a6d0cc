/// `reckon queue` alone names no subcommand, so it prints its usage before looking for a
/// configuration file to open.
extension QueueCommand {
  static var requiresArguments: Bool { true }
}

/// The tool's verbs.
enum Commands {
  /// Every verb, in the order `reckon --help` lists them.
  static let all: [any Command.Type] = [
    CheckCommand.self,
    ExplainCommand.self,
    EvalCommand.self,
    TestCommand.self,
    FmtCommand.self,
    QueueCommand.self,
    SendCommand.self,
    KeysCommand.self,
    ServeCommand.self,
    DoctorCommand.self,
    SimulateCommand.self,
    StandInCommand.self,
    DryRunCommand.self,
    GenerateCommand.self,
    ReportCommand.self,
    ImportHistoryCommand.self,
    PruneCommand.self,
    StateCommand.self,
    VersionCommand.self,
    CompletionCommand.self,
  ]
}

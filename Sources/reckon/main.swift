import Foundation

/// Every verb, in the order `reckon --help` lists them.
let commands: [any Command.Type] = [
  CheckCommand.self,
  ExplainCommand.self,
  EvalCommand.self,
  TestCommand.self,
  FmtCommand.self,
  QueueCommand.self,
  SendCommand.self,
  KeysCommand.self,
  ServeCommand.self,
  SimulateCommand.self,
  StandInCommand.self,
  DryRunCommand.self,
  GenerateCommand.self,
  ReportCommand.self,
  ImportHistoryCommand.self,
  PruneCommand.self,
  StateCommand.self,
  VersionCommand.self,
]

let code = await CommandLineTool(commands: commands).run(Array(CommandLine.arguments.dropFirst()))
exit(code)

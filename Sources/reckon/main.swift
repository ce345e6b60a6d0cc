import Foundation

let code = await CommandLineTool(commands: Commands.all).run(
  Array(CommandLine.arguments.dropFirst()))
exit(code)

import Foundation
import ReckonTestSupport
import Testing

/// `reckon completion` writes completions and the man page from the commands' own declarations.
struct CompletionCommandTests {
  static func completion(_ what: String) async throws -> String {
    let run = try await ReckonBinary.run(["completion", what])
    #expect(run.status == 0, "\(run.standardError)")
    return run.standardOutput
  }

  /// The bash script, loaded into a real bash, completes command names and a command's options.
  @Test func bashCompletesCommandsThenTheirOptions() async throws {
    let script = TestScratch.folder.appendingPathComponent("reckon-\(UUID().uuidString).bash")
    try Data(try await Self.completion("bash").utf8).write(to: script)
    let probe = """
      source '\(script.path)'
      COMP_WORDS=(reckon dry); COMP_CWORD=1; _reckon; echo "commands: ${COMPREPLY[*]}"
      COMP_WORDS=(reckon eval --po); COMP_CWORD=2; _reckon; echo "options: ${COMPREPLY[*]}"
      COMP_WORDS=(reckon queue --st); COMP_CWORD=2; _reckon; echo "queue: ${COMPREPLY[*]}"
      COMP_WORDS=(reckon queue ""); COMP_CWORD=2; _reckon; echo "verbs: ${COMPREPLY[*]}"
      COMP_WORDS=(reckon report ru); COMP_CWORD=2; _reckon; echo "report: ${COMPREPLY[*]}"
      """
    let run = try await ReckonBinary.run(["-c", probe], executable: "/bin/bash")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("commands: dry-run"), "\(run.standardOutput)")
    #expect(run.standardOutput.contains("options: --policy"), "\(run.standardOutput)")
    #expect(run.standardOutput.contains("queue: --status --state\n"), "\(run.standardOutput)")
    // The word after a command that takes one is its subcommand.
    #expect(
      run.standardOutput.contains("verbs: list show approve set retry drop\n"),
      "\(run.standardOutput)")
    #expect(run.standardOutput.contains("report: rules\n"), "\(run.standardOutput)")
  }

  @Test func zshAndFishNameEveryCommand() async throws {
    let zsh = try await Self.completion("zsh")
    let fish = try await Self.completion("fish")
    #expect(zsh.hasPrefix("#compdef reckon\n"))
    for command in ["check", "dry-run", "queue", "explain"] {
      #expect(zsh.contains("'\(command):"), "\(command)")
      #expect(fish.contains("-a \(command) -d"), "\(command)")
    }
    #expect(fish.contains("__fish_seen_subcommand_from eval' -l fact -r -F"))
    // Subcommands, and the values an option lists, are offered rather than file names.
    #expect(zsh.contains("'1:subcommand:(list show approve set retry drop)'"))
    // A colon in a placeholder is escaped, or zsh would read PORT as the action.
    #expect(zsh.contains(#":HOST\:PORT:_files'"#), "\(zsh)")
    #expect(zsh.contains(":day|week|month:(day week month)'"), "\(zsh)")
    #expect(fish.contains("__fish_seen_subcommand_from report' -a 'outcomes rules'"))
    #expect(fish.contains("-l by -r -f -a 'day week month'"))
    // --status offers the states an entry can be in, not files.
    let states = "held pending sending sent failed expired dropped"
    #expect(zsh.contains("'--status:STATUS:(\(states))'"), "\(zsh)")
    #expect(fish.contains("-l status -r -f -a '\(states)'\n"), "\(fish)")
    // An option with no line of help of its own shows no empty description.
    #expect(!zsh.contains("[]"), "\(zsh)")
    #expect(!fish.contains("-d ''"), "\(fish)")
  }

  /// Each command's help is in the page as `--help` prints it, so an option its usage line
  /// and prose explain (`queue --status`) is described there too, not listed bare.
  @Test func theManPageRendersWithEveryCommandAndOption() async throws {
    let page = try await Self.completion("man")
    #expect(page.hasPrefix(".TH RECKON 1"))
    #expect(page.contains(".B dry-run"))
    #expect(page.contains(".SS queue\n.nf\nUsage: reckon queue list [\\-\\-status STATUS]"))
    #expect(page.contains("\\-\\-status takes one of them"))
    #expect(page.contains("\\-\\-require\\-coverage"))
    #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
    let file = TestScratch.folder.appendingPathComponent("reckon-\(UUID().uuidString).1")
    try Data(page.utf8).write(to: file)
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
    let rendered = try await ReckonBinary.run(
      ["-man", "-Tutf8", "-ww", file.path], executable: "/usr/bin/groff")
    #expect(rendered.status == 0)
    #expect(rendered.standardError.isEmpty, "\(rendered.standardError)")
    #expect(rendered.standardOutput.contains("answers App Store and Google Play refund requests"))
    #expect(rendered.standardOutput.contains("Statuses: held, pending, sending"))
  }

  @Test func anUnknownShellIsAUsageError() async throws {
    let run = try await ReckonBinary.run(["completion", "powershell"])
    #expect(run.status == 2)
  }
}

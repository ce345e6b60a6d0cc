import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonSupport

/// `reckon fmt [--check] [PATHS]`: rewrites policy files in the canonical layout, or with
/// `--check` lists the files that would change.
enum FmtCommand: Command {
  static let name = "fmt"
  static let summary = "Format policy files in the one canonical layout"
  static let options: [CommandOption] = [
    CommandOption(
      "check", help: "change nothing; list the files that would change and exit 1 if there are any"),
    CommandOption(
      "stdout",
      help: [
        "print the formatted text instead of writing the files (several files each",
        "after a line \"==> PATH <==\")",
      ]),
  ]
  static let help = """
    Usage: reckon fmt [--check | --stdout] [PATHS...]

    Rewrites each policy file (a folder means every *.policy file in it, and a folder without
    one is an error; default: policies/) in the canonical layout: one declaration per line
    group, two-space indent under 'rule', one spelling for operators and literals, long
    conditions wrapped before 'and'/'or' at 100 columns, long action lists (or ones with
    comments between actions) one action per line, blank lines kept (at most one in a row),
    every comment kept in place, lines ended with LF (CR LF becomes LF) and a byte order
    mark at the start dropped. A file is replaced at once, never left half written; a
    symbolic link is followed (the file it points to is rewritten and the link kept), and the
    file keeps its permissions.

    \(CommandOption.table(options, column: 11))

    A file that does not parse is left alone, its errors are printed and it is counted as not
    formatted (exit 1). So is a file whose formatted text would not parse back to the same
    policy: fmt never writes one.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let check = arguments.flag("check")
    let toStandardOutput = arguments.flag("stdout")
    try arguments.rejectUnknown(positionals: .max)
    if check, toStandardOutput {
      throw UsageError(
        "--check and --stdout cannot be used together: --check lists the files that would "
          + "change, --stdout prints the formatted text")
    }
    // A path that cannot be read is reported and the others are still formatted, as check and
    // test do.
    var paths: [String] = []
    var unreadable = 0
    var seen: Set<String> = []
    for input in arguments.positionals.isEmpty ? ["policies"] : arguments.positionals {
      do { paths += PolicyFiles.dropRepeats(try PolicyFiles.expand([input]), seen: &seen) } catch {
        console.error("reckon fmt: \(error)")
        unreadable += 1
      }
    }
    var failed = 0
    var unreadFiles = 0
    var changed: [String] = []
    for path in paths {
      let source: SourceFile
      do { source = try PolicyFiles.read(path) } catch {
        console.error("reckon fmt: \(error)")
        unreadable += 1
        unreadFiles += 1
        continue
      }
      let formatted: String
      do { formatted = try PolicyFormatter(vocabulary: FactSchema.words).format(source) } catch {
        console.error(error.rendered())
        failed += 1
        continue
      }
      if toStandardOutput {
        // Several files are told apart as `head` tells them apart.
        if paths.count > 1 { console.out("==> \(path) <==") }
        console.out(formatted)
      } else if formatted != source.text {
        changed.append(path)
        if !check { try LocalFile.replaceContents(at: path, with: Data(formatted.utf8)) }
      }
    }
    if !toStandardOutput {
      for path in changed { console.out(check ? "would reformat \(path)" : "reformatted \(path)") }
      let unchanged = paths.count - changed.count - failed - unreadFiles
      if changed.isEmpty, unchanged > 0 {
        console.out(
          unchanged == 1 ? "1 file already formatted" : "\(unchanged) files already formatted")
      }
    }
    if failed > 0 {
      let note =
        failed == 1
        ? "1 file not formatted: it has errors" : "\(failed) files not formatted: they have errors"
      // With --stdout, standard output is the formatted text alone.
      if toStandardOutput { console.error(note) } else { console.out(note) }
    }
    return failed > 0 || unreadable > 0 || (check && !changed.isEmpty) ? 1 : 0
  }
}

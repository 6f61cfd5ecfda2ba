// HistoryFileBench: what a journal's age costs an app — launch (open until the head is
// readable, then one commit), memory, undo right after launch, time travel, and the file's
// bytes per commit — on journals of 10,000 to 10,000,000 commits of an app's mix, each
// measured in a process of its own. Tools/bench-history-file runs it.
//
//   HistoryFileBench [run options] [open options]                  the whole run and its table
//   HistoryFileBench generate PATH [--records N] [--head-items N] [--writes batched|app] [--seed S] [--staging N]
//   HistoryFileBench open-commit JOURNAL [open options]
//   HistoryFileBench undo-walk JOURNAL [--steps 1000] [--commits 100] [open options]
//   HistoryFileBench travel JOURNAL [--samples 50] [--seed 7] [--from store|file] [open options]
//   HistoryFileBench head-state DUMP
//
// Run options: see BenchmarkRun. Open options (OpenSettings): --checkpoint-budget-mb N,
// --durability strict|grouped|relaxed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum HistoryFileBench {
  static func main() throws {
    var arguments = Arguments(CommandLine.arguments.dropFirst(), flags: BenchmarkRun.flags)
    switch arguments.positional.first {
    case "generate": try Generation.run(&arguments)
    case "open-commit": try Measurement.openCommit(&arguments)
    case "undo-walk": try Measurement.undoWalk(&arguments)
    case "travel": try Measurement.travel(&arguments)
    case "head-state": try Measurement.headState(&arguments)
    case nil: BenchmarkRun(&arguments).run()
    case let other?: Arguments.fail("unknown subcommand \(other)")
    }
  }
}

import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BenchmarkRun {
  func path(_ spec: JournalSpec) -> String { "\(work)/\(spec.name).journal" }

  /// The journal `spec` describes, generated now unless a complete one is in the work directory
  /// (its `.done` file holds the generation's report and when it ran).
  func generated(_ spec: JournalSpec) -> ChildReport {
    let journal = path(spec)
    let done = journal + ".done"
    if !regenerate, fileSize(journal) != nil, let text = readTextFile(done), let report = ChildReport(parsing: text) {
      let when = text.split(separator: "\n").first { $0.hasPrefix("# ") }?.dropFirst(2) ?? "at an unknown time"
      Results.write("generate \(spec.label): reused, \(when)")
      describeGeneration(report)
      return report
    }
    removeFile(done)
    let load = loadAverage()
    printError("generating \(spec.label)...")
    let run = child(["generate", journal] + spec.arguments)
    writeTextFile(done, run.report.line + "\n# generated \(utcTimestamp()), load average \(load) -> \(loadAverage())\n")
    Results.write("generate \(spec.label): generated now, load average \(load) -> \(loadAverage())")
    describeGeneration(run.report)
    return run.report
  }

  private func describeGeneration(_ report: ChildReport) {
    let records = report.required("records")
    let steps = report.required("stepsSeconds")
    Results.write(
      "  \(durationText(report.required("seconds"))) (the records \(durationText(steps)), \(grouped(records / steps)) records/s; "
        + "close \(durationText(report.required("closeSeconds")))), peak \(megabytesText(report.required("peakMB"))); "
        + "\(grouped(report.required("versions"))) versions, head \(grouped(report.required("headItems"))) rows; "
        + "file \(grouped(report.required("fileBytes"))) B, \(fixed(bytesPerRecord(report), decimals: 1)) B/commit; "
        + "read index \(grouped(report.required("indexBytes"))) B")
  }

  /// The file's bytes per record of the mix: the file's growth after the load, per record.
  func bytesPerRecord(_ report: ChildReport) -> Double {
    (report.required("fileBytes") - report.required("loadBytes")) / report.required("records")
  }

  /// Runs one of this runner's subcommands in a new process; a failed one ends the run.
  func child(_ arguments: [String]) -> ChildRunReport {
    let run = runChild(executable, arguments)
    guard run.exitCode == 0, let report = ChildReport(parsing: run.output) else {
      Arguments.fail("\(arguments.joined(separator: " ")) exited \(run.exitCode):\n\(run.output)")
    }
    return ChildRunReport(report: report, processSeconds: run.seconds, processCPUSeconds: run.cpuSeconds)
  }

  /// Runs `subcommand` on a fresh copy of `spec`'s journal (and its read index), so the kept
  /// journal stays as generated; the copy is removed afterwards.
  func onCopy(_ spec: JournalSpec, _ subcommand: String, _ options: [String] = []) -> ChildRunReport {
    let copy = "\(scratch)/\(spec.name).journal"
    for suffix in ["", ".index"] {
      removeFile(copy + suffix)
      if fileSize(path(spec) + suffix) != nil { copyFile(path(spec) + suffix, to: copy + suffix) }
    }
    defer { for suffix in ["", ".index"] { removeFile(copy + suffix) } }
    return child([subcommand, copy] + options + settings.arguments)
  }

  /// Ends the run when a measurement saw another list than the one generated: the figures of a
  /// wrong result measure nothing.
  func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
    if !condition { Arguments.fail(problem()) }
  }

  func openCommit(_ spec: JournalSpec, generated: ChildReport) -> ChildRunReport {
    let load = loadAverage()
    let run = onCopy(spec, "open-commit")
    check(
      run["items"] == generated.required("headItems") + 1 && run["versions"] == generated.required("versions") + 1,
      "open-commit \(spec.label): \(run["items"]) rows and \(run["versions"]) versions after one more commit; generated: "
        + "\(generated.required("headItems")) and \(generated.required("versions"))")
    check(
      generated["headDigest"].map { $0 == run["headDigest"] } ?? true,
      "open-commit \(spec.label): the first screen of the head differs from the generated head's")
    Results.write(
      "open-commit \(spec.label): head readable \(durationText(run["head"])), after one commit \(durationText(run["commit"])) "
        + "(CPU \(durationText(run["commitCPU"]))), closed \(durationText(run["whole"])); process \(durationText(run.processSeconds)) "
        + "(CPU \(durationText(run.processCPUSeconds))), peak \(megabytesText(run["peakMB"])) (load \(load))")
    return run
  }

  func headState(_ spec: JournalSpec, generated: ChildReport) -> ChildReport {
    let run = child(["head-state", path(spec) + ".head"])
    check(
      run["items"] == generated.required("headItems") && (generated["headDigest"].map { $0 == run["headDigest"] } ?? true),
      "head-state \(spec.label): the dump did not rebuild the generated head")
    Results.write(
      "head-state \(spec.label): \(grouped(run["items"])) rows built from a dump: resident \(megabytesText(run["residentMB"])) "
        + "(\(megabytesText(run["baselineMB"])) before building; estimate \(megabytesText(run["estimatedMB"])))")
    return run.report
  }

  func undoWalk(_ spec: JournalSpec) -> ChildRunReport {
    let load = loadAverage()
    let run = onCopy(spec, "undo-walk")
    Results.write(
      "undo-walk \(spec.label): open \(durationText(run["open"])); \(Int(run["steps"])) undos: median \(durationText(run["median"])), "
        + "p90 \(durationText(run["p90"])), first \(durationText(run["first"])), worst \(durationText(run["worst"])); "
        + "100 commits \(durationText(run["commitsSeconds"])); peak \(megabytesText(run["peakMB"])) "
        + "(\(megabytesText(run["peakAfterCloseMB"])) with close) (load \(load))")
    return run
  }

  func travel(_ spec: JournalSpec, from source: String) -> ChildRunReport {
    let load = loadAverage()
    let run = onCopy(spec, "travel", ["--samples", "\(samples)", "--from", source])
    Results.write(
      "travel (\(source == "store" ? "journal.store.state(at:)" : "JournalTimeTravel.state(at:)")) \(spec.label): "
        + "open \(durationText(run["open"])); \(Int(run["samples"])) random versions: median \(durationText(run["median"])), "
        + "p90 \(durationText(run["p90"])), first \(durationText(run["first"])), worst \(durationText(run["worst"])); "
        + "peak \(megabytesText(run["peakMB"])) (load \(load))")
    return run
  }
}

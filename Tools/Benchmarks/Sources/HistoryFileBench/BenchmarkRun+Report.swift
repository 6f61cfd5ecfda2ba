import BenchmarkSupport

extension BenchmarkRun {
  /// Prints the figures by journal, then each target with its figure and whether it is met.
  func report(_ figures: RunFigures) {
    var journalsTable = TextTable(
      ["journal", "generated in", "B/commit", "open→head", "→1 commit", "CPU", "→closed", "process", "peak RSS",
       "undo median / p90", "RSS after undos", "head state"],
      rightAligned: Set(1...11))
    for spec in journals {
      let generation = figures.generated[spec]!
      let opens = figures.opens[spec] ?? []
      let undo = figures.undoWalks[spec]
      journalsTable.add([
        spec.label, durationText(generation.required("seconds")), fixed(bytesPerRecord(generation), decimals: 1),
        spread(opens.map { $0["head"] }), spread(opens.map { $0["commit"] }),
        durationText(median(opens.map { $0["commitCPU"] })), spread(opens.map { $0["whole"] }),
        spread(opens.map(\.processSeconds)), megabytesText(opens.map { $0["peakMB"] }.max() ?? .nan),
        undo.map { "\(durationText($0["median"])) / \(durationText($0["p90"]))" } ?? "",
        undo.map { megabytesText($0["peakMB"]) } ?? "",
        figures.headStates[spec].map { megabytesText($0.required("residentMB")) } ?? "",
      ])
    }
    Results.write("By journal: opens are median (min) of \(repeats) fresh processes (1 at 10M records and more), from the")
    Results.write("call to JournalStore.open until the first screen of the head is read, until one more commit")
    Results.write("returned (CPU: the process's over that time, every thread, median), and until close returned;")
    Results.write("process: spawn to exit; peak RSS: ru_maxrss. Undo: 1,000 undos")
    Results.write("right after open, then 100 commits; RSS after undos: peak before close. Head state: a process")
    Results.write("holding only the head's state, built from a dump of its rows.")
    for line in journalsTable.lines() { Results.write(line) }
    Results.write()

    var targets = TextTable(["target", "measured", "status"])
    func add(_ target: String, _ measured: String, _ met: Bool?) {
      targets.add([target, measured, met.map { $0 ? "met" : "NOT met" } ?? ""])
    }
    let mix = mixJournals.filter { figures.opens[$0] != nil }
    for spec in mix {
      let opens = figures.opens[spec]!
      let commit = median(opens.map { $0["commit"] })
      let targeted = [10_000, 1_000_000, 10_000_000].contains(spec.records)
      add(
        "open until the head is readable, then one commit, \(spec.label)\(targeted ? ": ≤ 30 ms" : "")",
        openFigures(opens), targeted ? commit <= 0.030 : nil)
    }
    if let first = mix.first, let last = mix.last, first != last {
      let growth = median(figures.opens[last]!.map { $0["commit"] }) / median(figures.opens[first]!.map { $0["commit"] })
      add("  growth from \(grouped(Double(first.records))) to \(grouped(Double(last.records))) commits: ≤ 2×", "\(fixed(growth, decimals: 1))×", growth <= 2)
    }
    if let largeHead, let opens = figures.opens[largeHead] {
      add(
        "open until the head is readable, then one commit, \(largeHead.label): ≤ 100 ms",
        openFigures(opens), median(opens.map { $0["commit"] }) <= 0.100)
    }
    if let last = mix.last, let undo = figures.undoWalks[last], let head = figures.headStates[last] {
      let allowance = head.required("residentMB") + 64
      add(
        "peak RSS after open + \(Int(undo["steps"])) undos + 100 commits, \(last.label): ≤ head state + 64 MiB",
        "\(megabytesText(undo["peakMB"])) against \(megabytesText(allowance)) (head state \(megabytesText(head.required("residentMB"))), "
          + "estimate \(megabytesText(undo["estimatedHeadMB"])))",
        undo["peakMB"] <= allowance)
    }
    for spec in mixJournals + [largeHead].compactMap({ $0 }) {
      guard let undo = figures.undoWalks[spec] else { continue }
      add(
        "undo right after open, \(Int(undo["steps"])) steps back, \(spec.label): ≤ 1 ms median",
        "median \(durationText(undo["median"])), p90 \(durationText(undo["p90"])), worst \(durationText(undo["worst"]))",
        undo["median"] <= 0.001)
    }
    if let travel = figures.storeTravel {
      add(
        "state(at: random V) through the store, \(JournalSpec(records: travelRecords).label): ≤ 50 ms median",
        "median \(durationText(travel["median"])), p90 \(durationText(travel["p90"])) (\(Int(travel["samples"])) versions; open \(durationText(travel["open"])))",
        travel["median"] <= 0.050)
    }
    if let travel = figures.fileTravel {
      add(
        "  the same versions with JournalTimeTravel on the file",
        "median \(durationText(travel["median"])), p90 \(durationText(travel["p90"])) (open \(durationText(travel["open"])))", nil)
    }
    if let appWritten, let generation = figures.generated[appWritten] {
      let batched = figures.generated[JournalSpec(records: appWritten.records)].map { bytesPerRecord($0) }
      let perCommit = bytesPerRecord(generation)
      add(
        "journal bytes per commit, \(appWritten.label) (one chunk each): ≤ 20 B",
        "\(fixed(perCommit, decimals: 1)) B" + (batched.map { " (the same commits batched: \(fixed($0, decimals: 1)) B)" } ?? ""),
        perCommit <= 20)
    }
    Results.write("Targets:")
    for line in targets.lines() { Results.write(line) }
  }

  /// An open's figures for the targets: to the commit, wall and CPU, and to the head.
  private func openFigures(_ opens: [ChildRunReport]) -> String {
    "\(spread(opens.map { $0["commit"] })), CPU \(durationText(median(opens.map { $0["commitCPU"] }))) "
      + "(head readable \(durationText(median(opens.map { $0["head"] }))))"
  }

  /// `median (min)` of durations.
  private func spread(_ samples: [Double]) -> String {
    guard !samples.isEmpty else { return "" }
    let text = durationText(median(samples))
    return samples.count == 1 ? text : "\(text) (\(durationText(samples.min()!)))"
  }

  private func median(_ samples: [Double]) -> Double { Samples(samples).median }
}

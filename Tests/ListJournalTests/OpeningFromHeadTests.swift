import Foundation
import JournalFormat
import ListJournal
import TestSupport
import Testing

/// Opening from the read index (`JournalHistoryLoading.whenNeeded`) against the full replay
/// (`.atOpen`) as the reference: the same head, the same answers before and after the history
/// loads, the same records appended, the same index written — and every index that cannot be
/// trusted falls back to the replay or is refused when the records disagree.
@Suite struct OpeningFromHeadTests {
  /// `==` for values too large for a failed expectation to print (reflecting a snapshot's trees).
  static func unloaded(_ journal: TextJournal) -> Bool { journal.store._isHistoryUnloaded }
  static func canUndo(_ journal: TextJournal) -> Bool { journal.store.canUndo }

  static func check<T: Equatable>(
    _ a: T, _ b: T, _ what: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if a != b { Issue.record("differs from the reference: \(what())", sourceLocation: sourceLocation) }
  }

  static func open(_ path: String, _ loading: JournalHistoryLoading, clock: TickingClock, options: JournalOptions = JournalOptions())
    throws -> TextJournal
  {
    var configuration = TextJournal.Configuration(durability: .relaxed, options: options, historyLoading: loading)
    configuration.store.clock = clock.closure
    configuration.store.journalCheckpointBytes = 2_048
    return try TextJournal.open(at: path, configuration: configuration)
  }

  static func writeRandomHistory(at path: String, seed: UInt64, steps: Int) throws {
    var driver = RandomHistoryDriver(seed: seed)
    let journal = try open(path, .atOpen, clock: TickingClock())
    for _ in 0..<steps { try driver.step(journal.store) }
    try journal.close()
  }

  static func copy(_ from: String, to: String) throws {
    for suffix in ["", ".index"] {
      try? FileManager.default.removeItem(atPath: to + suffix)
      if FileManager.default.fileExists(atPath: from + suffix) {
        try FileManager.default.copyItem(atPath: from + suffix, toPath: to + suffix)
      }
    }
  }

  /// The journal at `path` opened from its head, and a copy of it opened by a full replay: the
  /// reference every answer of the first is checked against.
  static func openWithReference(_ path: String, in directory: TemporaryDirectory) throws
    -> (fast: TextJournal, reference: TextJournal)
  {
    let referencePath = directory.file("reference.journal")
    try copy(path, to: referencePath)
    let fast = try open(path, .whenNeeded, clock: TickingClock())
    do {
      return (fast, try open(referencePath, .atOpen, clock: TickingClock()))
    } catch {
      try? fast.close()
      throw error
    }
  }

  /// Every record of the journal: kind, version and payload.
  static func records(_ path: String) throws -> [String] {
    let reader = try JournalReader.open(at: path)
    var iterator = reader.makeIterator(fromFrame: 0)
    var result: [String] = []
    while let record = try iterator.next() { result.append("\(record.kind) \(record.version) \(record.payload)") }
    return result
  }

  /// What a user reads without moving the head: the fast store must not need its history for it.
  static func expectSameHead(_ fast: TextStore, _ reference: TextStore, sourceLocation: SourceLocation = #_sourceLocation) {
    Self.check(fast.head, reference.head, sourceLocation: sourceLocation)
    Self.check(fast.latestVersion, reference.latestVersion, sourceLocation: sourceLocation)
    Self.check(cleared(fast.snapshot), cleared(reference.snapshot), sourceLocation: sourceLocation)
    Self.check(fast.canUndo, reference.canUndo, sourceLocation: sourceLocation)
    Self.check(fast.redoTarget, reference.redoTarget, sourceLocation: sourceLocation)
    Self.check(fast.eventCount, reference.eventCount, sourceLocation: sourceLocation)
  }

  /// Everything about `versions`, which may load the fast store's history.
  static func expectSameHistory(
    _ fast: TextStore, _ reference: TextStore, versions: [Int], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for version in versions.map({ Version($0) }) {
      Self.check(fast.info(for: version), reference.info(for: version), "info of \(version)", sourceLocation: sourceLocation)
      try Self.check(fast.events(of: version), reference.events(of: version), "events of \(version)", sourceLocation: sourceLocation)
      try Self.check(fast.state(at: version), reference.state(at: version), "state at \(version)", sourceLocation: sourceLocation)
      Self.check(fast.children(of: version), reference.children(of: version), "children of \(version)", sourceLocation: sourceLocation)
    }
    Self.check(fast.redoPath(), reference.redoPath(), sourceLocation: sourceLocation)
  }

  @Test(arguments: 1...12)
  func randomHistoriesReadAndContinueAsAfterAReplay(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let fastPath = directory.file("fast.journal")
    let referencePath = directory.file("reference.journal")
    try Self.writeRandomHistory(at: fastPath, seed: seed, steps: propertySteps(300))
    try Self.copy(fastPath, to: referencePath)
    var random = SeededRandom(seed: seed &* 7919)
    // Four sessions: each opens both copies, reads, works on them the same way and closes.
    for session in 0..<4 {
      let fastClock = TickingClock()
      let referenceClock = TickingClock()
      let fast = try Self.open(fastPath, .whenNeeded, clock: fastClock)
      let reference = try Self.open(referencePath, .atOpen, clock: referenceClock)
      #expect({ Self.unloaded(fast) }(), "session \(session) opened from its head")
      #expect(!{ Self.unloaded(reference) }())
      Self.expectSameHead(fast.store, reference.store)
      // Facts and recent events come from the index, without loading.
      let latest = reference.store.latestVersion.rawValue
      for version in [0, latest, max(0, latest - 3), reference.store.head.rawValue] {
        Self.check(fast.store.info(for: Version(version)), reference.store.info(for: Version(version)))
        try Self.check(fast.store.events(of: Version(version)), reference.store.events(of: Version(version)))
      }
      #expect({ Self.unloaded(fast) }(), "facts and recent events need no replay")
      // The same random work on both: the first session commits only (the fast store never
      // loads), the last undoes, redoes and commits (near the head: it may not load), the
      // others move the head anywhere and read any version (it loads).
      var fastDriver = RandomHistoryDriver(seed: seed &+ UInt64(session) &* 104_729)
      var referenceDriver = fastDriver
      for step in 0..<propertySteps(120) {
        if session == 0 {
          try fast.store.transaction { tx in
            if tx.snapshot.sectionIdentifiers.isEmpty { try tx.appendSections([TestSection("s\(step)")]) }
            try tx.appendItems([TestItem("item \(session) \(step)")])
          }
          try reference.store.transaction { tx in
            if tx.snapshot.sectionIdentifiers.isEmpty { try tx.appendSections([TestSection("s\(step)")]) }
            try tx.appendItems([TestItem("item \(session) \(step)")])
          }
        } else if session == 3 {
          let roll = Int.random(in: 0..<10, using: &random)
          if roll < 4, reference.store.canUndo {
            let changes = try (fast.store.undo(), reference.store.undo())
            Self.check(changes.0.events, changes.1.events, "undo at step \(step)")
          } else if roll < 6, reference.store.redoTarget != nil {
            let changes = try (fast.store.redo(), reference.store.redo())
            Self.check(changes.0.events, changes.1.events, "redo at step \(step)")
          } else {
            // Labels the history has not seen yet: the version table's label list grows.
            for store in [fast.store, reference.store] {
              try store.transaction(label: "window \(session) \(step % 3)") { tx in
                if tx.snapshot.sectionIdentifiers.isEmpty { try tx.appendSections([TestSection("s\(step)")]) }
                try tx.appendItems([TestItem("item \(session) \(step)")])
              }
            }
          }
        } else {
          let changedFast = try fastDriver.step(fast.store)
          let changedReference = try referenceDriver.step(reference.store)
          Self.check(changedFast, changedReference, "step \(step)")
        }
        Self.expectSameHead(fast.store, reference.store)
        if step % 40 == 39 && (session == 1 || session == 2) {
          let latest = reference.store.latestVersion.rawValue
          try Self.expectSameHistory(
            fast.store, reference.store, versions: (0..<4).map { _ in Int.random(in: 0...latest, using: &random) })
        }
      }
      if session == 0 { #expect({ Self.unloaded(fast) }(), "commits alone need no history") }
      let latestNow = reference.store.latestVersion.rawValue
      if session == 3 {
        Self.check(fast.store.redoPath(), reference.store.redoPath())
      } else {
        try Self.expectSameHistory(fast.store, reference.store, versions: Array(Set([0, latestNow, reference.store.head.rawValue])))
      }
      let fastLoaded = !Self.unloaded(fast)
      try fast.close()
      try reference.close()
      try Self.check(Self.records(fastPath), Self.records(referencePath), "session \(session): the same records")
      let fastIndex = try Data(contentsOf: URL(fileURLWithPath: fastPath + ".index"))
      let referenceIndex = try Data(contentsOf: URL(fileURLWithPath: referencePath + ".index"))
      let fastFile = try JournalReadIndexFile.read(at: fastPath + ".index", fileSystem: POSIXFileSystem())
      let referenceFile = try JournalReadIndexFile.read(at: referencePath + ".index", fileSystem: POSIXFileSystem())
      // A store that did not load writes what it has at hand: maybe fewer indexed versions and
      // redo children, the same for those it writes. Everything else is the same bytes.
      for kind in UInt32(1)...6 where fastLoaded || (kind != 3 && kind != 6) {
        let a = try fastFile.section(kind)
        let b = try referenceFile.section(kind)
        Self.check(a, b, "session \(session): index section \(kind) \(a.map { "\($0.count) \(Array($0.prefix(12)))" } ?? "-") vs \(b.map { "\($0.count) \(Array($0.prefix(12)))" } ?? "-")")
      }
      if fastLoaded {
        Self.check(fastIndex, referenceIndex, "session \(session): the same read index")
      } else {
        let fastReadIndex = try #require(try JournalReadIndex<TestSection, TestItem>.open(at: fastPath, codec: HistoryCodec()))
        let referenceReadIndex = try #require(try JournalReadIndex<TestSection, TestItem>.open(at: referencePath, codec: HistoryCodec()))
        let indexed = try fastReadIndex.indexedVersions()
        #expect(Set(indexed).isSubset(of: Set(try referenceReadIndex.indexedVersions())))
        for version in [Version(0)] + indexed {
          let fastEvents = try fastReadIndex.events(of: version)
          let referenceEvents = try referenceReadIndex.events(of: version)
          Self.check(fastEvents, referenceEvents, "indexed events of \(version): \(String(describing: fastEvents).prefix(300)) vs \(String(describing: referenceEvents).prefix(300))")
          if let child = try fastReadIndex.redoChild(of: version) {
            try Self.check(child, referenceReadIndex.redoChild(of: version), "redo child of \(version)")
          }
        }
      }
    }
  }

  /// Undo and redo one step at a time on both stores, comparing every change and the head.
  static func undoAndRedo(
    _ fast: TextStore, _ reference: TextStore, steps: Int, headEvery: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var undone = 0
    while reference.canUndo && undone < steps {
      Self.check(fast.canUndo, true, "can undo after \(undone)", sourceLocation: sourceLocation)
      let fastChange = try fast.undo()
      let referenceChange = try reference.undo()
      Self.check(fastChange.reverted, referenceChange.reverted, "undo \(undone)", sourceLocation: sourceLocation)
      Self.check(fastChange.events, referenceChange.events, "undo \(undone)", sourceLocation: sourceLocation)
      if undone % headEvery == 0 { Self.expectSameHead(fast, reference, sourceLocation: sourceLocation) }
      undone += 1
    }
    Self.check(fast.canUndo, reference.canUndo, "can undo at the end", sourceLocation: sourceLocation)
    Self.check(fast.redoPath(), reference.redoPath(), sourceLocation: sourceLocation)
    while reference.redoTarget != nil {
      let fastChange = try fast.redo()
      let referenceChange = try reference.redo()
      Self.check(fastChange.applied, referenceChange.applied, sourceLocation: sourceLocation)
      Self.check(fastChange.events, referenceChange.events, sourceLocation: sourceLocation)
      if reference.redoTarget == nil || reference.head.rawValue % headEvery == 0 {
        Self.expectSameHead(fast, reference, sourceLocation: sourceLocation)
      }
    }
  }

  @Test func undoAndRedoRightAfterOpenStayWithinTheFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("list.journal")
    try Self.writeRandomHistory(at: path, seed: 99, steps: 200)
    let referencePath = directory.file("reference.journal")
    try Self.copy(path, to: referencePath)
    // Two sessions: the second opens the index the first (which never loaded) wrote.
    for session in 0..<2 {
      let fast = try Self.open(path, .whenNeeded, clock: TickingClock())
      let reference = try Self.open(referencePath, .atOpen, clock: TickingClock())
      #expect({ Self.unloaded(fast) }())
      try Self.undoAndRedo(fast.store, reference.store, steps: .max)
      #expect({ Self.unloaded(fast) }(), "session \(session): undo and redo to the root and back")
      // Back down part of the way, a new branch there, and the states around it.
      try Self.undoAndRedo(fast.store, reference.store, steps: 7)
      for _ in 0..<5 { _ = try fast.store.undo(); _ = try reference.store.undo() }
      try fast.store.appendSections([TestSection("branch \(session)")])
      try reference.store.appendSections([TestSection("branch \(session)")])
      Self.expectSameHead(fast.store, reference.store)
      #expect({ Self.unloaded(fast) }(), "session \(session): a branch in the window")
      // The head's ancestors, and the redo path left where the branch started.
      var near = [reference.store.head]
      while near.count < 4, let parent = reference.store.info(for: near.last!)?.parent { near.append(parent) }
      near += reference.store.redoPath(limit: 3)
      for version in near {
        try Self.check(fast.store.state(at: version), reference.store.state(at: version), "state at \(version)")
      }
      try Self.check(
        fast.store.events(from: near[0], to: near.last!), reference.store.events(from: near[0], to: near.last!))
      #expect({ Self.unloaded(fast) }(), "session \(session): undo, redo and reads near the head need no replay")
      try fast.close()
      try reference.close()
      try Self.check(Self.records(path), Self.records(referencePath), "session \(session): the same records")
    }
  }

  @Test(arguments: 1...4 as ClosedRange<UInt64>)
  func statesFarFromTheHeadComeFromTheFileWithoutLoading(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("fast.journal")
    try Self.writeRandomHistory(at: path, seed: seed, steps: propertySteps(300))
    let (fast, reference) = try Self.openWithReference(path, in: directory)
    defer {
      try? fast.close()
      try? reference.close()
    }
    #expect({ Self.unloaded(fast) }())
    let latest = reference.store.latestVersion.rawValue
    var random = SeededRandom(seed: seed &* 6_151)
    let versions = [0, 1, latest] + (0..<40).map { _ in Int.random(in: 0...latest, using: &random) }
    for version in versions.map({ Version($0) }) {
      try Self.check(fast.store.state(at: version), reference.store.state(at: version), "state at \(version)")
    }
    // The window holds the head's line and its redo path; the others can only come from the file.
    var near = Set(reference.store.redoPath().map(\.rawValue))
    var cursor: Version? = reference.store.head
    while let version = cursor {
      near.insert(version.rawValue)
      cursor = reference.store.info(for: version)?.parent
    }
    #expect(versions.contains { !near.contains($0) }, "seed \(seed) samples versions off the head's line")
    #expect({ Self.unloaded(fast) }(), "states anywhere in the history are rebuilt from the file")
    #expect(throws: HistoryError.unknownVersion(Version(latest + 1))) { try fast.store.state(at: Version(latest + 1)) }
    // Commits since open are the store's own; the older states still come from the file.
    for store in [fast.store, reference.store] {
      try store.transaction(label: "after open") { tx in
        if tx.snapshot.sectionIdentifiers.isEmpty { try tx.appendSections([TestSection("after open")]) }
        try tx.appendItems([TestItem("after open \(seed)")])
      }
    }
    for version in (versions.prefix(8) + [latest + 1]).map({ Version($0) }) {
      try Self.check(fast.store.state(at: version), reference.store.state(at: version), "state at \(version) after a commit")
    }
    #expect({ Self.unloaded(fast) }())
    // The same states once the history is loaded (an undo past the window's reach loads it).
    try fast.store.checkout(Version(0))
    try reference.store.checkout(Version(0))
    Self.expectSameHead(fast.store, reference.store)
    for version in versions.prefix(8).map({ Version($0) }) {
      try Self.check(fast.store.state(at: version), reference.store.state(at: version), "state at \(version) once loaded")
    }
  }

  @Test func undoPastTheWindowLoadsTheHistoryOnceAndStillMatches() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("list.journal")
    let writer = try Self.open(path, .atOpen, clock: TickingClock())
    try writer.store.appendSections([TestSection("s")])
    // A list that stays small (invariant checks are per item): an item in, then out again.
    for step in 0..<1_300 {
      if step % 2 == 0 {
        try writer.store.appendItems([TestItem("item \(step)")], toSection: TestSection("s").id)
      } else {
        try writer.store.deleteItems([TestItem("item \(step - 1)").id])
      }
    }
    try writer.close()
    let (fast, reference) = try Self.openWithReference(path, in: directory)
    defer {
      try? fast.close()
      try? reference.close()
    }
    try Self.undoAndRedo(fast.store, reference.store, steps: 1_000, headEvery: 97)
    #expect({ Self.unloaded(fast) }(), "the head's 1,024 nearest ancestors are in the index")
    try Self.undoAndRedo(fast.store, reference.store, steps: .max, headEvery: 97)
    #expect(!{ Self.unloaded(fast) }(), "undo past them loads the history")
    try Self.expectSameHistory(fast.store, reference.store, versions: [0, 1, 200, 1_301])
  }

  @Test func anIndexWithoutRedoChildrenLoadsTheHistoryForARedoIntoTheUnknown() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("list.journal")
    try Self.writeRandomHistory(at: path, seed: 41, steps: 150)
    // The index as a writer that predates the redo children section leaves it.
    let indexPath = path + ".index"
    let file = try JournalReadIndexFile.read(at: indexPath, fileSystem: POSIXFileSystem())
    var sections: [JournalReadIndexFile.Section] = []
    for kind in UInt32(1)...5 {
      if let bytes = try file.section(kind) { sections.append(.init(kind: kind, bytes: bytes, compressed: kind != 1)) }
    }
    let reader = try JournalReader.open(at: path)
    try JournalReadIndexFile.write(
      JournalReadIndexFile.encode(journal: reader.prefix, sections: sections), at: indexPath, fileSystem: POSIXFileSystem())
    let (fast, reference) = try Self.openWithReference(path, in: directory)
    defer {
      try? fast.close()
      try? reference.close()
    }
    #expect({ Self.unloaded(fast) }())
    try Self.undoAndRedo(fast.store, reference.store, steps: 20)
    try Self.expectSameHistory(fast.store, reference.store, versions: [0, reference.store.head.rawValue])
  }

  @Test func aStaleOrDamagedIndexFallsBackToTheReplay() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("list.journal")
    try Self.writeRandomHistory(at: path, seed: 5, steps: 150)
    // Stale: a commit appended by a writer that leaves the old index behind (a crash does so).
    var options = JournalOptions()
    options.writesReadIndex = false
    let appender = try Self.open(path, .atOpen, clock: TickingClock(), options: options)
    try appender.store.appendItems([TestItem("after the index")], toSection: appender.store.snapshot.sectionIdentifiers.first)
    let expected = appender.store.snapshot
    try appender.close()
    let stale = try Self.open(path, .whenNeeded, clock: TickingClock())
    #expect(!{ Self.unloaded(stale) }(), "a stale index is not used")
    Self.check(cleared(stale.store.snapshot), cleared(expected))
    try stale.close()  // writes a fresh index
    let fresh = try Self.open(path, .whenNeeded, clock: TickingClock())
    #expect({ Self.unloaded(fresh) }())
    Self.check(cleared(fresh.store.snapshot), cleared(expected))
    try fresh.close()
    // Damaged: every byte of the index flipped in turn (a sample) gives the replay's store or
    // the index's own, never another state.
    let indexPath = path + ".index"
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: indexPath)))
    for offset in stride(from: 0, to: original.count, by: max(1, original.count / 60)) {
      var damaged = original
      damaged[offset] ^= 0x5A
      try Data(damaged).write(to: URL(fileURLWithPath: indexPath))
      let journal = try Self.open(path, .whenNeeded, clock: TickingClock(), options: options)
      #expect(!{ Self.unloaded(journal) }(), "byte \(offset) damaged: the checksum refuses the index")
      Self.check(cleared(journal.store.snapshot), cleared(expected))
      try journal.close()
    }
    try Data(original).write(to: URL(fileURLWithPath: indexPath))
  }

  @Test func anIndexWhoseHeadDisagreesWithTheRecordsIsRefusedWhenTheHistoryLoads() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("list.journal")
    try Self.writeRandomHistory(at: path, seed: 17, steps: 120)
    // An index that describes the journal's bytes but holds another head state: its sections
    // rewritten around a head section taken from an index of a different list.
    let otherPath = directory.file("other.journal")
    let other = try Self.open(otherPath, .atOpen, clock: TickingClock())
    try other.store.appendSections([TestSection("not this list")])
    try other.close()
    let indexPath = path + ".index"
    let file = try JournalReadIndexFile.read(at: indexPath, fileSystem: POSIXFileSystem())
    let otherFile = try JournalReadIndexFile.read(at: otherPath + ".index", fileSystem: POSIXFileSystem())
    var sections: [JournalReadIndexFile.Section] = []
    for kind in UInt32(1)...5 {
      let bytes = try (kind == 4 ? otherFile : file).section(kind)
      if let bytes { sections.append(.init(kind: kind, bytes: bytes, compressed: kind != 1)) }
    }
    let reader = try JournalReader.open(at: path)
    let lying = try JournalReadIndexFile.encode(journal: reader.prefix, sections: sections)
    try JournalReadIndexFile.write(lying, at: indexPath, fileSystem: POSIXFileSystem())
    let journal = try Self.open(path, .whenNeeded, clock: TickingClock())
    defer { try? journal.close() }
    #expect({ Self.unloaded(journal) }())
    #expect(throws: HistoryError.self) { try journal.store.undo() }
    #expect(throws: HistoryError.self) { try journal.store.state(at: Version(0)) == TestSnapshot() }
  }

  @Test func encoderTablesRoundTripAndRefuseMalformedBytes() throws {
    var snapshot = TestSnapshot()
    try snapshot.appendSections([TestSection("s")])
    try snapshot.appendItems([TestItem("x", content: "first"), TestItem("y", content: "a longer content")], toSection: TestSection("s").id)
    var codec = HistoryCodec<TestSection, TestItem>()
    _ = try codec.encode(.checkpoint(HistoryCheckpoint(head: 1, latestVersion: 1, snapshot: snapshot)), sequence: 1)
    let bytes = try codec.encodedEncoderTables()
    var restored = HistoryCodec<TestSection, TestItem>()
    try restored.restoreEncoderTables(from: bytes)
    // An update of a remembered item and a reload name the items through the tables.
    let next = HistoryCommit<TestSection, TestItem>(
      version: 2, parent: 1, timestamp: 2, label: "edit",
      events: [
        .updateItem(old: TestItem("x", content: "first"), new: TestItem("x", content: "second")), .reloadItems(["y"]),
      ])
    let continued = try restored.encode(.commit(next), sequence: 2).payload
    try Self.check(continued, (codec.encode(.commit(next), sequence: 2).payload))
    try Self.check(restored.encodedEncoderTables(), codec.encodedEncoderTables())
    for cut in 0..<bytes.count {
      var truncated = HistoryCodec<TestSection, TestItem>()
      #expect(throws: HistoryCodecError.self, "cut at \(cut)") { try truncated.restoreEncoderTables(from: Array(bytes[..<cut])) }
    }
    var trailing = HistoryCodec<TestSection, TestItem>()
    #expect(throws: HistoryCodecError.self) { try trailing.restoreEncoderTables(from: bytes + [0]) }
  }
}

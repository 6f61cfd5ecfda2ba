import ListHistory
import ListState

extension ListStore {
  /// The version a `N`, `head` or `head~N` reference names, in this store's undo tree
  /// (`head~N` follows parents, so it can reach across a branch point).
  ///
  /// - Throws: a ``ListLanguageError`` naming the missing version or the head's too-short ancestry.
  /// - Complexity: O(N) for `head~N`.
  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int {
    let latest = latestVersion.rawValue
    switch reference {
    case .number(let number):
      if number <= latest, info(for: Version(number)) == nil, let start = keptHistoryStart {
        throw ListLanguageError(
          message: "version \(number) was dropped from the journal's history, which now starts at version \(start.rawValue)")
      }
      if let run = repairedAway.first(where: { $0.contains(number) }) {
        throw ListLanguageError(message: "version \(number) was lost in a repair of the journal (\(Self.describe(run)) lost in repair)")
      }
      guard number <= latest, info(for: Version(number)) != nil else {
        throw ListLanguageError(message: "no version \(number) (the journal has versions 0...\(latest))")
      }
      return number
    case .head(let back):
      var cursor = head
      for _ in 0..<back {
        guard let parent = info(for: cursor)?.parent else {
          if cursor == keptHistoryStart {
            throw ListLanguageError(
              message: "no version \(reference): the journal's history starts at version \(cursor.rawValue) (older versions were dropped)")
          }
          if cursor.rawValue > 0, let run = gapRun(around: cursor.rawValue) {
            throw ListLanguageError(
              message: "no version \(reference): the history before \(cursor.rawValue) was lost in a repair of the journal "
                + "(\(Self.describe(run)) lost in repair)")
          }
          throw ListLanguageError(message: "no version \(reference): the head \(head.rawValue) has fewer ancestors")
        }
        cursor = parent
      }
      return cursor.rawValue
    }
  }

  /// The state at a version number, with history errors as list-language errors.
  func state(atNumber version: Int) throws(ListLanguageError) -> ListSnapshot<Section, Item> {
    do {
      return try state(at: Version(version))
    } catch {
      throw ListLanguageError(message: _StoreJournalSession.describe(error))
    }
  }

  /// The versions a repair of the journal lost, as runs of numbers.
  var repairedAway: [ClosedRange<Int>] { lostVersions.map { $0.lowerBound.rawValue...$0.upperBound.rawValue } }

  /// The lost versions next to `version`, where a repaired journal's history resumed (the
  /// checkpoint's head may have been the first, last or a middle one of the gap); nil if none.
  func gapRun(around version: Int) -> ClosedRange<Int>? {
    let runs = repairedAway
    return runs.first { $0.upperBound == version - 1 } ?? runs.first { $0.lowerBound == version + 1 }
      ?? runs.last { $0.upperBound < version }
  }

  /// `versions 151...198` (or `version 151`) for the messages.
  static func describe(_ run: ClosedRange<Int>) -> String {
    run.count == 1 ? "version \(run.lowerBound)" : "versions \(run.lowerBound)...\(run.upperBound)"
  }

  /// The versions ``logEntries(summary:)`` lists and the events they record, counted.
  ///
  /// - Complexity: O(versions).
  func historyCounts() -> (versions: Int, events: Int) {
    var versions = 0
    var events = 0
    for number in 0...latestVersion.rawValue {
      guard let info = info(for: Version(number)) else { continue }
      versions += 1
      events += info.operationCount
    }
    return (versions, events)
  }

  /// One `log` entry per version, oldest first (the newest `count` only, when given);
  /// `summary` describes a version's events.
  ///
  /// - Complexity: O(versions + events) plus what `summary` costs.
  func logEntries(newest count: Int? = nil, summary: ([ListEvent<Section, Item>]) -> [String]) -> [LogEntry] {
    let head = self.head
    let latest = latestVersion.rawValue
    let keptStart = keptHistoryStart?.rawValue
    return (max(0, latest + 1 - (count ?? latest + 1))..<(latest + 1)).compactMap { number in
      guard let info = info(for: Version(number)) else { return nil }
      let events = (try? events(of: Version(number))) ?? []
      // Where a repaired journal's history resumed: its state came from a checkpoint.
      let resumed = number > 0 && info.parent == nil
      return LogEntry(
        version: number, parent: info.parent?.rawValue, time: info.timestamp,
        label: resumed ? (number == keptStart ? "(the kept history starts here; older versions were dropped)" : "(rebuilt from a checkpoint; its record is lost)") : info.label ?? "",
        eventCount: info.operationCount, changeCount: events.reduce(0) { $0 + $1.changeCount },
        isHead: info.version == head, operations: summary(events), parentIsLost: resumed)
    }
  }
}

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
      guard number <= latest, info(for: Version(number)) != nil else {
        throw ListLanguageError(message: "no version \(number) (the journal has versions 0...\(latest))")
      }
      return number
    case .head(let back):
      var cursor = head
      for _ in 0..<back {
        guard let parent = info(for: cursor)?.parent else {
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
    return (max(0, latest + 1 - (count ?? latest + 1))..<(latest + 1)).compactMap { number in
      guard let info = info(for: Version(number)) else { return nil }
      let events = (try? events(of: Version(number))) ?? []
      return LogEntry(
        version: number, parent: info.parent?.rawValue, time: info.timestamp, label: info.label ?? "",
        eventCount: info.operationCount, changeCount: events.reduce(0) { $0 + $1.changeCount },
        isHead: info.version == head, operations: summary(events))
    }
  }
}

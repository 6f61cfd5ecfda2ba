/// An in-memory undo tree of snapshots: the stand-in for `ListStore` until the history engine
/// lands (the real store replaces it behind ``JournalSession``).
///
/// Undo moves the head to the parent; redo to the child that was most recently the head; a
/// commit after an undo starts a branch and the old one stays reachable.
///
/// - Complexity: commit, undo, redo O(1) plus the snapshot copy (O(1), persistent storage).
struct _StandinHistory {
  struct Version {
    var parent: Int?
    var snapshot: TextSnapshot
    var label: String
    var time: Double
    var operations: [String]
  }

  private(set) var versions: [Version]
  private(set) var head = 0
  private var lastVisitedChild: [Int: Int] = [:]

  init() {
    versions = [Version(parent: nil, snapshot: TextSnapshot(), label: "Empty List", time: 0, operations: [])]
  }

  var headSnapshot: TextSnapshot { versions[head].snapshot }

  mutating func commit(_ snapshot: TextSnapshot, label: String, operations: [String], time: Double) -> Int {
    versions.append(Version(parent: head, snapshot: snapshot, label: label, time: time, operations: operations))
    moveHead(to: versions.count - 1)
    return head
  }

  mutating func moveHead(to version: Int) {
    head = version
    if let parent = versions[version].parent { lastVisitedChild[parent] = version }
  }

  private func step(_ version: Int) -> HistoryStep {
    HistoryStep(version: version, label: versions[version].label, operations: versions[version].operations)
  }

  mutating func undo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    var steps: [HistoryStep] = []
    var cursor = head
    for _ in 0..<count {
      guard let parent = versions[cursor].parent else {
        throw ListLanguageError(message: steps.isEmpty ? "nothing to undo: the head is version 0" : "cannot undo \(count): only \(steps.count) version(s) before the head")
      }
      steps.append(step(cursor))
      cursor = parent
    }
    // Every version passed on the way was the head: redo retraces the same path.
    for step in steps { lastVisitedChild[versions[step.version].parent!] = step.version }
    head = cursor
    return steps
  }

  mutating func redo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    var steps: [HistoryStep] = []
    var cursor = head
    for _ in 0..<count {
      guard let child = lastVisitedChild[cursor] else {
        throw ListLanguageError(message: steps.isEmpty ? "nothing to redo at version \(cursor)" : "cannot redo \(count): only \(steps.count) step(s) to redo")
      }
      steps.append(step(child))
      cursor = child
    }
    head = cursor
    return steps
  }

  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int {
    switch reference {
    case .number(let number):
      guard number < versions.count else {
        throw ListLanguageError(message: "no version \(number) (the journal has versions 0...\(versions.count - 1))")
      }
      return number
    case .head(let back):
      var cursor = head
      for _ in 0..<back {
        guard let parent = versions[cursor].parent else {
          throw ListLanguageError(message: "no version \(reference): the head \(head) has only \(steps(from: head)) ancestor(s)")
        }
        cursor = parent
      }
      return cursor
    }
  }

  private func steps(from version: Int) -> Int {
    var count = 0
    var cursor = version
    while let parent = versions[cursor].parent {
      count += 1
      cursor = parent
    }
    return count
  }

  func infos() -> [LogEntry] {
    versions.indices.map { index in
      let version = versions[index]
      return LogEntry(
        version: index, parent: version.parent, time: version.time, label: version.label,
        operationCount: version.operations.count, isHead: index == head)
    }
  }
}

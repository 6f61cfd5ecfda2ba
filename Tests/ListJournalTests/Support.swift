import Foundation
import ListJournal
import TestSupport

typealias TextStore = ListStore<TestSection, TestItem>
typealias TextJournal = JournalStore<TestSection, TestItem>

/// A fresh temporary directory removed at deinit.
final class TemporaryDirectory {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "listjournal-tests-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A deterministic clock: 1_700_000_000 s plus one millisecond per call.
final class TickingClock: @unchecked Sendable {
  private let lock = NSLock()
  private var now = 1_700_000_000.0

  func tick() -> Double {
    lock.lock()
    defer { lock.unlock() }
    now += 0.001
    return now
  }

  var closure: @Sendable () -> Double { { self.tick() } }
}

/// Steps of random runs (more via `LISTJOURNAL_PROPERTY_STEPS`).
func propertySteps(_ standard: Int) -> Int {
  ProcessInfo.processInfo.environment["LISTJOURNAL_PROPERTY_STEPS"].flatMap(Int.init) ?? standard
}

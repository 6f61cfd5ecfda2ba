import Foundation
import ListHistory

/// A persistence sink that refuses records while told to, as a failing journal does: the store
/// then throws and changes nothing.
final class FailingSink: HistoryRecordSink, @unchecked Sendable {
  struct Refused: Error, Equatable {}
  private let lock = NSLock()
  private var refusing = false

  func refuse(_ refuse: Bool) {
    lock.lock()
    refusing = refuse
    lock.unlock()
  }

  func write(_ record: HistoryRecord) throws {
    lock.lock()
    defer { lock.unlock() }
    if refusing { throw Refused() }
  }
}

import Dispatch
import ListLocking
import Testing

@Suite("ListMutex")
struct ListMutexTests {
  struct Refused: Error, Equatable {}

  /// Many threads adding at once lose no update: the lock excludes them from each other.
  @Test func concurrentUpdatesAreSerialized() {
    let total = ListMutex(0)
    let log = ListMutex<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for step in 0..<5_000 {
        total.withLock { $0 += 1 }
        if step % 1_000 == 0 { log.withLock { $0.append(thread) } }
      }
    }
    #expect(total.withLock { $0 } == 40_000)
    #expect(log.withLock { $0.count } == 40)
  }

  /// A typed error leaves the lock as a return does: released, the value as the body left it.
  @Test func typedErrorsPassThroughAndReleaseTheLock() {
    let value = ListMutex(1)
    #expect(throws: Refused.self) {
      try value.withLock { (number: inout Int) throws(Refused) -> Void in
        number = 2
        throw Refused()
      }
    }
    #expect(value.withLock { $0 } == 2)
  }

  struct Token: ~Copyable {
    var uses = 0
  }

  @Test func holdsNoncopyableValues() {
    let token = ListMutex(Token())
    token.withLock { $0.uses += 1 }
    #expect(token.withLock { $0.uses } == 1)
  }
}

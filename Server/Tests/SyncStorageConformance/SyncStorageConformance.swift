import ListReplica
import ListSync

/// The `SyncStorage` contract as checks any storage can be run through: the PostgreSQL storage's
/// tests run them, and so can the file storage's. Each check creates the lists it needs under
/// the names it is given and throws ``ConformanceFailure`` saying what broke.
///
/// ```swift
/// let storage = try await makeStorage()
/// try await SyncStorageConformance.checkIdempotentAppends(storage, list: "idempotent")
/// ```
public enum SyncStorageConformance {
  /// Genesis, creation and unknown lists: an unknown list has no genesis and refuses appends and
  /// reads with `unknownList`; the first creation wins; `lists()` names every list.
  ///
  /// - Complexity: a handful of calls.
  public static func checkGenesisAndCreate(_ storage: any SyncStorage, list: String) async throws {
    try require(try await storage.genesis(of: list) == nil, "'\(list)' has a genesis before it was created")
    let missing = SyncStorageError.unknownList(list)
    let appendError = try await storageError("append to a missing list") {
      try await storage.append([ConformanceCommits.commit(replica: 1, sequence: 1)], to: list)
    }
    try require(appendError == missing, "append to a missing list threw \(appendError), not \(missing)")
    let positionError = try await storageError("lastPosition of a missing list") { try await storage.lastPosition(of: list) }
    try require(positionError == missing, "lastPosition of a missing list threw \(positionError)")
    let readError = try await storageError("commits of a missing list") {
      try await storage.commits(of: list, after: 0, limit: 10)
    }
    try require(readError == missing, "commits(after:) of a missing list threw \(readError)")
    let vectorError = try await storageError("commits(notCoveredBy:) of a missing list") {
      try await storage.commits(of: list, notCoveredBy: ReplicaVersionVector())
    }
    try require(vectorError == missing, "commits(notCoveredBy:) of a missing list threw \(vectorError)")

    let first = ConformanceCommits.genesis(0xA11CE, base: [9, 8, 7])
    let created = try await storage.create(list, genesis: first)
    try require(created == first, "create returned \(created), not the genesis it was given")
    let again = try await storage.create(list, genesis: ConformanceCommits.genesis(0xB0B, base: []))
    try require(again == first, "a second create replaced the genesis: \(again)")
    try require(try await storage.genesis(of: list) == first, "genesis(of:) differs from the one created")
    try require(try await storage.lastPosition(of: list) == 0, "a new list's last position is not 0")
    try require(try await storage.commits(of: list, after: 0, limit: 10).isEmpty, "a new list holds commits")
    try require(try await storage.lists().contains(list), "lists() does not name '\(list)'")
  }

  /// Many creators of one list racing, spread over `storages` (instances of one backend): all
  /// get the same genesis, one of those offered, and the list exists once.
  ///
  /// - Complexity: `creators` concurrent creations.
  public static func checkCreateRace(_ storages: [any SyncStorage], list: String, creators: Int = 16) async throws {
    let results = try await withThrowingTaskGroup(of: (UInt64, SyncListGenesis).self) { group in
      for creator in 0..<creators {
        let storage = storages[creator % storages.count]
        group.addTask {
          let offered = ConformanceCommits.genesis(UInt64(creator + 1), base: [UInt8(truncatingIfNeeded: creator)])
          return (offered.listID, try await storage.create(list, genesis: offered))
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let winners = Set(results.map(\.1))
    try require(winners.count == 1, "racing creators got different geneses: \(winners)")
    let winner = winners.first!
    try require((1...UInt64(creators)).contains(winner.listID), "the list's genesis \(winner) was never offered")
    for storage in storages {
      try require(try await storage.genesis(of: list) == winner, "an instance reads another genesis than the winner's")
      try require(try await storage.lists().filter { $0 == list }.count == 1, "lists() names '\(list)' other than once")
    }
  }

  /// Appends are idempotent: the same commits again are duplicates and store nothing; a mix
  /// stores only the new ones, numbered on; twins with equal bytes inside one append are one
  /// commit.
  ///
  /// - Complexity: a handful of appends.
  public static func checkIdempotentAppends(_ storage: any SyncStorage, list: String) async throws {
    _ = try await storage.create(list, genesis: ConformanceCommits.genesis(7))
    let first = ConformanceCommits.commits(replica: 10, 1...3)
    let stored = try await storage.append(first, to: list)
    try require(stored.duplicates == 0, "a first append counted \(stored.duplicates) duplicates")
    try require(stored.stored.map(\.position) == [1, 2, 3], "positions \(stored.stored.map(\.position)), not 1...3")
    try require(stored.stored.map(\.id) == first.map(\.id), "the stored commits are not the ones appended, in order")
    try require(stored.stored.map(\.bytes) == first.map(\.bytes), "the stored bytes differ from those appended")

    let again = try await storage.append(first, to: list)
    try require(again.stored.isEmpty && again.duplicates == 3, "appending the same commits again stored \(again.stored.count), \(again.duplicates) duplicates")
    try require(try await storage.lastPosition(of: list) == 3, "a duplicate append moved the last position")

    let other = ConformanceCommits.commits(replica: 20, 1...2)
    let mixed = [first[1]] + other + [first[2], other[0]]
    let result = try await storage.append(mixed, to: list)
    try require(result.duplicates == 3, "a mixed append counted \(result.duplicates) duplicates, not 3")
    try require(result.stored.map(\.position) == [4, 5], "a mixed append stored at \(result.stored.map(\.position)), not 4, 5")
    try require(result.stored.map(\.id) == other.map(\.id), "a mixed append stored \(result.stored.map(\.id))")

    let all = try await storage.commits(of: list, after: 0, limit: 100)
    try require(all.map(\.position) == [1, 2, 3, 4, 5], "the list reads back positions \(all.map(\.position))")
    try require(all.map(\.id) == first.map(\.id) + other.map(\.id), "the list reads back other commits")
    try require(all.map(\.bytes) == (first + other).map(\.bytes), "the list reads back other bytes")
    try require(all.map(\.lamportClock) == (first + other).map(\.lamportClock), "the list reads back other clocks")
    let empty = try await storage.append([], to: list)
    try require(empty.stored.isEmpty && empty.duplicates == 0, "an empty append stored something")
  }

  /// A different commit under a held identity, in the list or twice in one append, refuses the
  /// whole append with `conflictingCommit` naming it, and stores nothing of it.
  ///
  /// - Complexity: a handful of appends.
  public static func checkConflictingTwins(_ storage: any SyncStorage, list: String) async throws {
    _ = try await storage.create(list, genesis: ConformanceCommits.genesis(8))
    let held = ConformanceCommits.commits(replica: 30, 1...2)
    _ = try await storage.append(held, to: list)

    let fresh = ConformanceCommits.commit(replica: 31, sequence: 1)
    let twin = ConformanceCommits.commit(replica: 30, sequence: 2, variant: 1)
    let error = try await storageError("an append with a conflicting twin") {
      try await storage.append([fresh, twin, ConformanceCommits.commit(replica: 31, sequence: 2)], to: list)
    }
    try require(error == .conflictingCommit(list: list, id: twin.id), "a conflicting twin threw \(error)")
    try require(try await storage.lastPosition(of: list) == 2, "a refused append moved the last position")
    let after = try await storage.commits(of: list, after: 0, limit: 100)
    try require(after.map(\.id) == held.map(\.id), "a refused append left commits behind: \(after.map(\.id))")
    try require(after.map(\.bytes) == held.map(\.bytes), "a refused append changed a held commit's bytes")

    let inner = ConformanceCommits.commit(replica: 32, sequence: 1)
    let innerTwin = ConformanceCommits.commit(replica: 32, sequence: 1, variant: 2)
    let innerError = try await storageError("an append holding two versions of one commit") {
      try await storage.append([fresh, inner, innerTwin], to: list)
    }
    try require(innerError == .conflictingCommit(list: list, id: inner.id), "twins inside one append threw \(innerError)")
    try require(try await storage.lastPosition(of: list) == 2, "twins inside one append moved the last position")

    let retried = try await storage.append([fresh, inner, inner], to: list)
    try require(retried.stored.map(\.id) == [fresh.id, inner.id], "after a refusal the same commits did not store")
    try require(retried.duplicates == 1, "equal twins inside one append counted \(retried.duplicates) duplicates")
  }

  /// Reads: pages by position, the commits a version vector lacks, and pages of those between
  /// two positions bounded by count and bytes (catch-up's reads), all in position order, against
  /// what was appended (random appends from several replicas, seeded).
  ///
  /// - Complexity: O(commits) appends and reads.
  public static func checkReads(_ storage: any SyncStorage, list: String, commits count: Int = 300, seed: UInt64) async throws {
    var random = ConformanceRandom(seed: seed)
    _ = try await storage.create(list, genesis: ConformanceCommits.genesis(9))
    var next: [UInt64: UInt64] = [:]
    var expected: [SyncStoredCommit] = []
    while expected.count < count {
      var batch: [SyncStoredCommit] = []
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        let replica = UInt64.random(in: 1...5, using: &random) << 56 | 0xFF
        next[replica, default: 0] += 1
        batch.append(ConformanceCommits.commit(replica: replica, sequence: next[replica]!))
      }
      let result = try await storage.append(batch, to: list)
      try require(result.stored.count == batch.count, "seed \(seed): fresh commits counted as duplicates")
      expected += result.stored
    }
    try require(expected.map(\.position) == Array(1...UInt64(expected.count)), "seed \(seed): positions are not 1...n in append order")

    for _ in 0..<20 {
      let after = UInt64.random(in: 0...UInt64(expected.count + 2), using: &random)
      let limit = Int.random(in: 1...50, using: &random)
      let page = try await storage.commits(of: list, after: after, limit: limit)
      let want = expected.filter { $0.position > after }.prefix(limit)
      try require(page == Array(want), "seed \(seed): commits(after: \(after), limit: \(limit)) read \(page.map(\.position))")
    }
    for _ in 0..<20 {
      var entries: [ReplicaID: UInt64] = [:]
      for (replica, last) in next where Bool.random(using: &random) {
        entries[ReplicaID(rawValue: replica)] = UInt64.random(in: 0...last + 1, using: &random)
      }
      if Bool.random(using: &random) { entries[ReplicaID(rawValue: 0xDEAD)] = 4 }
      let vector = ReplicaVersionVector(entries)
      let missing = try await storage.commits(of: list, notCoveredBy: vector)
      let want = expected.filter { !vector.contains($0.id) }
      try require(missing == want, "seed \(seed): commits(notCoveredBy: \(vector)) read \(missing.map(\.position)), not \(want.map(\.position))")

      // Pages of them by position, bounded by count and bytes, as catch-up reads them.
      let after = UInt64.random(in: 0...UInt64(expected.count), using: &random)
      let through = UInt64.random(in: after...UInt64(expected.count + 2), using: &random)
      let limit = Int.random(in: 1...40, using: &random)
      let maxBytes = Int.random(in: 0...(want.first?.bytes.count ?? 1) * 30, using: &random)
      let page = try await storage.commits(
        of: list, notCoveredBy: vector, after: after, through: through, limit: limit, maxBytes: maxBytes)
      var wantPage: [SyncStoredCommit] = []
      var bytes = 0
      for commit in want where commit.position > after && commit.position <= through && wantPage.count < limit {
        guard wantPage.isEmpty || bytes + commit.bytes.count <= maxBytes else { break }
        wantPage.append(commit)
        bytes += commit.bytes.count
      }
      try require(
        page == wantPage,
        "seed \(seed): a page after \(after) through \(through), \(limit) commits, \(maxBytes) bytes, not covered by \(vector) read \(page.map(\.position)), not \(wantPage.map(\.position))"
      )
    }
    // Paging on from each page's last position reads every commit not covered, once.
    let vector = ReplicaVersionVector([ReplicaID(rawValue: 1 << 56 | 0xFF): 3])
    var paged: [SyncStoredCommit] = []
    var cursor: UInt64 = 0
    while true {
      let page = try await storage.commits(
        of: list, notCoveredBy: vector, after: cursor, through: UInt64(expected.count), limit: 7, maxBytes: 200)
      guard let last = page.last else { break }
      paged += page
      cursor = last.position
    }
    try require(paged == expected.filter { !vector.contains($0.id) }, "seed \(seed): paging read \(paged.map(\.position))")
  }

  /// Positions are serial across instances: `writers` tasks spread over `storages` append random
  /// batches (fresh commits, re-sent ones, and commits every writer races to send) while a
  /// reader per instance follows by position. Every commit is stored exactly once, positions are
  /// 1...n with no gap, and every reader saw each position exactly once, in order.
  ///
  /// - Complexity: O(commits) appends and reads.
  public static func checkSerialPositions(
    _ storages: [any SyncStorage], list: String, writers: Int = 8, commitsPerWriter: Int = 250, seed: UInt64
  ) async throws {
    _ = try await storages[0].create(list, genesis: ConformanceCommits.genesis(10))
    // Commits every writer sends at random moments: each must be stored once, whoever wins.
    let shared = ConformanceCommits.commits(replica: 0x5A5A, 1...UInt64(max(1, commitsPerWriter / 5)))

    let outcome = try await withThrowingTaskGroup(of: Outcome.self) { group in
      for writer in 0..<writers {
        let storage = storages[writer % storages.count]
        group.addTask {
          var random = ConformanceRandom(seed: seed &+ UInt64(writer) &* 0x1_0000_0001)
          let replica = UInt64(writer + 1) << 40
          var sent: [SyncStoredCommit] = []
          var outcome = Outcome()
          var sequence: UInt64 = 0
          while sequence < UInt64(commitsPerWriter) {
            var batch: [SyncStoredCommit] = []
            for _ in 0..<Int.random(in: 1...10, using: &random) where sequence < UInt64(commitsPerWriter) {
              sequence += 1
              batch.append(ConformanceCommits.commit(replica: replica, sequence: sequence))
            }
            if !sent.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
              batch.append(sent.randomElement(using: &random)!)
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
              batch.append(shared.randomElement(using: &random)!)
            }
            batch.shuffle(using: &random)
            let result = try await storage.append(batch, to: list)
            try require(result.stored.count + result.duplicates == batch.count, "seed \(seed): an append's stored and duplicates do not add up")
            try require(result.stored.map(\.position) == result.stored.map(\.position).sorted(), "seed \(seed): an append's stored commits are not in position order")
            if let first = result.stored.first {
              try require(result.stored.map(\.position) == Array(first.position..<first.position + UInt64(result.stored.count)), "seed \(seed): one append's positions are not contiguous")
            }
            outcome.stored += result.stored
            sent += batch
          }
          outcome.sent = sent + shared
          return outcome
        }
      }
      return try await group.reduce(into: Outcome()) { total, one in
        total.stored += one.stored
        total.sent += one.sent
      }
    }
    // Every shared commit once more, so each is stored even if no writer happened to pick it.
    let tail = try await storages[0].append(shared, to: list)
    let stored = outcome.stored + tail.stored

    let byID = Dictionary(grouping: stored, by: \.id)
    try require(byID.values.allSatisfy { $0.count == 1 }, "seed \(seed): a commit was stored twice: \(byID.filter { $0.value.count > 1 }.keys.prefix(3))")
    let sentIDs = Set(outcome.sent.map(\.id))
    try require(Set(byID.keys) == sentIDs, "seed \(seed): \(sentIDs.subtracting(byID.keys).count) commits sent were never stored")
    let positions = stored.map(\.position).sorted()
    try require(positions == Array(1...UInt64(stored.count)), "seed \(seed): the stored positions are not 1...\(stored.count) exactly once")

    let byPosition = stored.sorted { $0.position < $1.position }
    for (index, storage) in storages.enumerated() {
      var read: [SyncStoredCommit] = []
      var random = ConformanceRandom(seed: seed ^ UInt64(index))
      while true {
        let page = try await storage.commits(of: list, after: read.last?.position ?? 0, limit: Int.random(in: 1...300, using: &random))
        if page.isEmpty { break }
        read += page
      }
      try require(read == byPosition, "seed \(seed): instance \(index) reads other commits by position than were stored")
      try require(try await storage.lastPosition(of: list) == UInt64(stored.count), "seed \(seed): instance \(index)'s last position is off")
      let all = try await storage.commits(of: list, notCoveredBy: ReplicaVersionVector())
      try require(all == byPosition, "seed \(seed): instance \(index): commits(notCoveredBy: []) differ from the log")
    }
  }

  /// Positions followed while appends run: a reader per instance pages from the last position
  /// it saw, so it must see 1, 2, 3, … with no gap and nothing twice — a commit that became
  /// visible after a higher position would be skipped.
  ///
  /// - Complexity: O(commits) appends and reads.
  public static func checkFollowingReaders(
    _ storages: [any SyncStorage], list: String, writers: Int = 8, appendsPerWriter: Int = 60, seed: UInt64
  ) async throws {
    _ = try await storages[0].create(list, genesis: ConformanceCommits.genesis(11))
    let total = writers * appendsPerWriter * 3
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        let storage = storages[writer % storages.count]
        group.addTask {
          let replica = UInt64(writer + 1) << 32
          for append in 0..<appendsPerWriter {
            let first = UInt64(append * 3 + 1)
            _ = try await storage.append(ConformanceCommits.commits(replica: replica, first...first + 2), to: list)
          }
        }
      }
      for (index, storage) in storages.enumerated() {
        group.addTask {
          var seen: UInt64 = 0
          var rounds = 0
          while seen < UInt64(total) {
            let page = try await storage.commits(of: list, after: seen, limit: 64)
            for commit in page {
              try require(commit.position == seen + 1, "seed \(seed): reader on instance \(index) saw position \(commit.position) after \(seen)")
              seen = commit.position
            }
            rounds += 1
            try require(rounds < 1_000_000, "seed \(seed): reader on instance \(index) stalled at \(seen)")
            if page.isEmpty { await Task.yield() }
          }
        }
      }
      try await group.waitForAll()
    }
  }

  /// `externalAppends()` of `listener` tells of `writer`'s appends (another instance of one
  /// backend), and never of `listener`'s own.
  ///
  /// - Complexity: three appends; waits at most `timeout` for each notice.
  public static func checkExternalAppends(
    writer: any SyncStorage, listener: any SyncStorage, list: String, timeout: Duration = .seconds(20)
  ) async throws {
    _ = try await writer.create(list, genesis: ConformanceCommits.genesis(12))
    let notices = listener.externalAppends()
    let notes = NoticeCollector(notices)
    let first = try await writer.append(ConformanceCommits.commits(replica: 40, 1...3), to: list)
    try require(first.stored.last?.position == 3, "the writer's append did not store 1...3")
    try await notes.wait(for: list, position: 3, timeout: timeout)
    let own = try await listener.append(ConformanceCommits.commits(replica: 41, 1...2), to: list)
    try require(own.stored.last?.position == 5, "the listener's append did not store 4...5")
    let second = try await writer.append(ConformanceCommits.commits(replica: 40, 4...4), to: list)
    try require(second.stored.last?.position == 6, "the writer's second append did not store 6")
    try await notes.wait(for: list, position: 6, timeout: timeout)
    let heard = await notes.notices.filter { $0.list == list }.map(\.lastPosition)
    try require(!heard.contains(5), "the listener was told of its own append (position 5): \(heard)")
    await notes.stop()
  }

  /// After `close()`, calls fail with `closed` and `externalAppends()` streams end.
  ///
  /// - Complexity: a handful of calls.
  public static func checkClose(_ storage: any SyncStorage, list: String) async throws {
    _ = try await storage.create(list, genesis: ConformanceCommits.genesis(13))
    let stream = storage.externalAppends()
    try await storage.close()
    for await _ in stream {}  // ends, or the check hangs
    let genesis = try await storageError("genesis after close") { try await storage.genesis(of: list) }
    try require(genesis == .closed, "genesis after close threw \(genesis)")
    let append = try await storageError("append after close") {
      try await storage.append([ConformanceCommits.commit(replica: 50, sequence: 1)], to: list)
    }
    try require(append == .closed, "append after close threw \(append)")
    let late = storage.externalAppends()
    for await _ in late {}
  }

  struct Outcome: Sendable {
    var stored: [SyncStoredCommit] = []
    var sent: [SyncStoredCommit] = []
  }
}

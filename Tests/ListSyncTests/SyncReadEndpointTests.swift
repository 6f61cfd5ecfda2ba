import Foundation
import ListHistory
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// The read endpoints' JSON, parsed back and checked against a replica holding the same
/// commits: the state at every version, the log, diffs; bad parameters and unknown lists get
/// JSON errors with their status.
@Suite struct SyncReadEndpointTests {
  @Test func readsMatchTheReplica() async throws {
    var random = SeededRandom(seed: 21)
    let fixture = try SyncFixture()
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(
      itemPoolSize: 30, sectionPoolSize: 4, invalidProbability: 0, targetItemCount: 20, weights: weights)
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 7)
    let laptop = Replica(cloning: phone, replica: ReplicaID(rawValue: 2))
    let runners = [Runner(fixture.client(phone)), Runner(fixture.client(laptop))]
    for step in 0..<120 {
      let replica = step % 3 == 0 ? laptop : phone
      let operation = generator.next(for: replica.snapshot, using: &random)
      _ = try? replica.transaction(label: step % 5 == 0 ? "step \(step)" : nil) { tx in try operation.apply(to: &tx) }
      if step % 17 == 0 { _ = try replica.undo() }
      if step % 10 == 0 {
        try await withDeadline("sync") { for runner in runners { try await runner.client.waitUntilSynced() } }
      }
    }
    try await withDeadline("quiescence") {
      for _ in 0..<2 { for runner in runners { try await runner.client.waitUntilSynced() } }
    }
    let commits = phone.commits
    #expect(laptop.commits == commits)
    func fold(_ count: Int) throws -> TestSnapshot {
      let scratch = Replica(replica: ReplicaID(rawValue: 50), listID: 7)
      try scratch.receive(Array(commits.prefix(count)))
      return scratch.snapshot
    }
    // The head and every tenth version.
    let head = try await fixture.hub.readState(list: "groceries", version: nil)
    #expect(try ReadJSON.state(head.body) == ReadJSON.state(of: phone.snapshot))
    #expect(try ReadJSON.object(head.body)["version"] as? Int == commits.count)
    for version in stride(from: 0, through: commits.count, by: 10) {
      let response = try await fixture.hub.readState(list: "groceries", version: version)
      #expect(try ReadJSON.state(response.body) == ReadJSON.state(of: try fold(version)), "version \(version)")
    }
    // The log, paged.
    var entries: [[String: Any]] = []
    var after = 0
    while true {
      let page = try ReadJSON.object(try await fixture.hub.readLog(list: "groceries", after: after, limit: 25).body)
      let more = try #require(page["entries"] as? [[String: Any]])
      if more.isEmpty { break }
      entries += more
      after += more.count
    }
    #expect(entries.count == commits.count)
    for (index, entry) in entries.enumerated() {
      let commit = commits[index]
      #expect(entry["version"] as? Int == index + 1)
      #expect(entry["id"] as? String == commit.id.description)
      #expect(entry["lamportClock"] as? Int == Int(commit.lamportClock))
      #expect(entry["operations"] as? Int == commit.operations.count)
      #expect((entry["label"] as? String) == commit.label)
      let origin: String =
        switch commit.origin {
        case .edit: "edit"
        case .undo(let of): "undo \(of)"
        case .redo(let of): "redo \(of)"
        }
      #expect(entry["origin"] as? String == origin)
    }
    // Diffs between random versions, checked against the two folds.
    for _ in 0..<15 {
      let from = Int(random.next() % UInt64(commits.count + 1))
      let to = Int(random.next() % UInt64(commits.count + 1))
      let diff = try ReadJSON.object(try await fixture.hub.readDiff(list: "groceries", from: from, to: to).body)
      let old = try fold(from)
      let new = try fold(to)
      let items = try #require(diff["items"] as? [String: [String]])
      #expect(Set(items["inserted"] ?? []) == Set(new.itemIdentifiers).subtracting(old.itemIdentifiers), "\(from)→\(to)")
      #expect(Set(items["deleted"] ?? []) == Set(old.itemIdentifiers).subtracting(new.itemIdentifiers), "\(from)→\(to)")
      let updated = new.itemIdentifiers.filter { old.contains(item: $0) && old.item($0) != new.item($0) }
      #expect(items["updated"] ?? [] == updated, "\(from)→\(to)")
      let sections = try #require(diff["sections"] as? [String: [String]])
      #expect(Set(sections["inserted"] ?? []) == Set(new.sectionIdentifiers).subtracting(old.sectionIdentifiers))
      #expect(Set(sections["deleted"] ?? []) == Set(old.sectionIdentifiers).subtracting(new.sectionIdentifiers))
    }
    // Errors.
    let hub = fixture.hub
    let beyond = commits.count + 1
    for (request, status, code) in [
      ({ try await hub.readState(list: "groceries", version: beyond) }, 400, "bad-request"),
      ({ try await hub.readState(list: "chores", version: nil) }, 404, "not-hosted"),
      ({ try await hub.readState(list: "no/slash", version: nil) }, 400, "invalid-list-name"),
      ({ try await hub.readLog(list: "groceries", after: 0, limit: 0) }, 400, "bad-request"),
      ({ try await hub.readDiff(list: "groceries", from: -1, to: nil) }, 400, "bad-request"),
    ] as [(() async throws -> SyncReadResponse, Int, String)] {
      do {
        _ = try await request()
        Issue.record("no error for \(code)")
      } catch let error as SyncHubError {
        #expect(error.httpStatus == status)
        let body = try ReadJSON.object(error.response.body)
        #expect(body["code"] as? String == code)
        #expect((body["error"] as? String)?.isEmpty == false)
      }
    }
    #expect(try await fixture.hub.lists(visibleTo: nil) == ["groceries"])
    #expect(try await fixture.hub.readLists(visibleTo: nil).text == #"["groceries"]"#)
    for runner in runners { await runner.stop() }
    await fixture.hub.shutdown()
  }
}

/// Token files: a valid one authorizes as written; a bad one names the field.
@Suite struct SyncAccessPolicyTests {
  @Test func aTokenFileGrantsWhatItSays() throws {
    let json = """
      {"tokens": [
        {"token": "phone", "lists": ["groceries", "chores"], "access": "write"},
        {"token": "dashboard", "lists": "*", "access": "read"}
      ]}
      """
    let policy = try SyncAccessPolicy.decode(json: Array(json.utf8))
    #expect(policy.authorize(token: "phone", list: "groceries") == .write)
    #expect(policy.authorize(token: "phone", list: "work") == .forbidden)
    #expect(policy.authorize(token: "dashboard", list: "work") == .read)
    #expect(policy.authorize(token: "stranger", list: "groceries") == .unauthenticated)
    #expect(policy.authorize(token: nil, list: "groceries") == .unauthenticated)
  }

  @Test func badTokenFilesNameTheField() {
    let cases: [(String, String)] = [
      (#"{"tokens": [{"token": "a", "lists": "*", "access": "admin"}]}"#, "tokens[0].access"),
      (#"{"tokens": [{"token": "a", "lists": "*", "access": "read"}, {"token": "b", "access": "read"}]}"#, "tokens[1].lists"),
      (#"{"tokens": [{"token": "a", "lists": ["ok", "not ok"], "access": "read"}]}"#, "tokens[0].lists"),
      (#"{"tokens": [{"token": "a", "lists": "*", "access": "read"}, {"token": "a", "lists": "*", "access": "write"}]}"#, "tokens[1].token"),
      (#"{"tokens": [{"token": "", "lists": "*", "access": "read"}]}"#, "tokens[0].token"),
    ]
    for (json, field) in cases {
      #expect(performing: { try SyncAccessPolicy.decode(json: Array(json.utf8), source: "tokens.json") }, throws: { error in
        guard let error = error as? SyncAccessPolicyError else { return false }
        return error.field == field && error.source == "tokens.json"
      })
    }
    #expect(throws: SyncAccessPolicyError.self) { try SyncAccessPolicy.decode(json: Array("{not json".utf8)) }
  }
}

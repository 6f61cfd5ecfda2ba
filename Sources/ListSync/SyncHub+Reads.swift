import ListState
import ListHistory
import ListReplica

extension SyncHub {
  /// `GET /v1/lists`: the names of the lists `token` may read, as a JSON array
  /// (`["chores", "groceries"]`).
  ///
  /// - Throws: ``SyncHubError/unauthenticated`` for no or an unknown token.
  /// - Complexity: listing the storage's lists.
  public func readLists(visibleTo token: String?) async throws(SyncHubError) -> SyncReadResponse {
    let names = try await lists(visibleTo: token)
    var json = JSONWriter()
    json.array { json in for name in names { json.string(name) } }
    return SyncReadResponse(status: 200, body: json.bytes)
  }

  /// `GET /v1/lists/{list}`: the list's state after the first `version` commits of the agreed
  /// order (all when nil), as JSON:
  /// `{"list": "groceries", "version": 3, "commits": 5, "sections": [{"id": …, "content": …,
  /// "items": [{"id": …, "content": …, "expanded": false, "children": […]}]}]}`.
  ///
  /// The agreed order is the one every replica holding the same commits folds; a version counts
  /// commits in it, so a late commit that sorts earlier shifts later versions.
  ///
  /// - Throws: ``SyncHubError/notHosted(list:)``, ``SyncHubError/badRequest(_:)`` for a version
  ///   beyond the list's commits.
  /// - Complexity: bringing the read model up to date (the commits stored since the last read),
  ///   plus, for an earlier version, folding that many commits.
  public func readState(list: String, version: Int?) async throws(SyncHubError) -> SyncReadResponse {
    let (replica, commits) = try await model(list)
    let snapshot: ListSnapshot<JournalValueElement, JournalValueElement>
    let at = version ?? commits.count
    guard (0...commits.count).contains(at) else {
      throw .badRequest("version \(at) is outside 0...\(commits.count) (the list holds \(commits.count) commits)")
    }
    snapshot = at == commits.count ? replica.snapshot : Self.fold(replica, commits: Array(commits[..<at]))
    var json = JSONWriter()
    json.object { json in
      json.key("list")
      json.string(list)
      json.key("version")
      json.number(at)
      json.key("commits")
      json.number(commits.count)
      json.key("sections")
      Self.writeSections(snapshot, into: &json)
    }
    return SyncReadResponse(status: 200, body: json.bytes)
  }

  /// `GET /v1/lists/{list}/log?after=&limit=`: commits of the agreed order after the first
  /// `after` (default 0), at most `limit` (default 100, at most 10,000):
  /// `{"list": …, "commits": 5, "entries": [{"version": 1, "id": "9f2c…:1", "replica": "9f2c…",
  /// "sequence": 1, "lamportClock": 1, "timestamp": 1800000000.0, "label": null, "origin": "edit",
  /// "operations": 2}]}`; an undo's origin is `"undo 9f2c…:1"`, a redo's `"redo …"`.
  public func readLog(list: String, after: Int?, limit: Int?) async throws(SyncHubError) -> SyncReadResponse {
    let (_, commits) = try await model(list)
    let start = after ?? 0
    let count = limit ?? 100
    guard start >= 0 else { throw .badRequest("after=\(start) is negative") }
    guard (1...10_000).contains(count) else { throw .badRequest("limit=\(count) is outside 1...10000") }
    var json = JSONWriter()
    json.object { json in
      json.key("list")
      json.string(list)
      json.key("commits")
      json.number(commits.count)
      json.key("entries")
      json.array { json in
        guard start < commits.count else { return }
        for index in start..<min(commits.count, start + count) {
          let commit = commits[index]
          json.object { json in
            json.key("version")
            json.number(index + 1)
            json.key("id")
            json.string(commit.id.description)
            json.key("replica")
            json.string(commit.id.replica.description)
            json.key("sequence")
            json.number(commit.id.sequence)
            json.key("lamportClock")
            json.number(commit.lamportClock)
            json.key("timestamp")
            json.number(commit.timestamp)
            json.key("label")
            if let label = commit.label { json.string(label) } else { json.null() }
            json.key("origin")
            switch commit.origin {
            case .edit: json.string("edit")
            case .undo(let of): json.string("undo \(of)")
            case .redo(let of): json.string("redo \(of)")
            }
            json.key("operations")
            json.number(commit.operations.count)
          }
        }
      }
    }
    return SyncReadResponse(status: 200, body: json.bytes)
  }

  /// `GET /v1/lists/{list}/diff?from=N&to=M`: what changed between two versions (`to` defaults
  /// to the head), by identifier: `{"list": …, "from": 1, "to": 3, "sections": {"inserted": […],
  /// "deleted": […], "updated": […], "moved": […]}, "items": {"inserted": […], "deleted": […],
  /// "updated": […], "moved": […]}}`. An item moved when its section, parent or place among its
  /// siblings changed; updated when its content did. Identifiers are JSON values, in the order of
  /// the state they are found in (`to`, or `from` for deletions).
  public func readDiff(list: String, from: Int, to: Int?) async throws(SyncHubError) -> SyncReadResponse {
    let (replica, commits) = try await model(list)
    let end = to ?? commits.count
    for (name, value) in [("from", from), ("to", end)] where !(0...commits.count).contains(value) {
      throw .badRequest("\(name)=\(value) is outside 0...\(commits.count) (the list holds \(commits.count) commits)")
    }
    func state(_ version: Int) -> ListSnapshot<JournalValueElement, JournalValueElement> {
      version == commits.count ? replica.snapshot : Self.fold(replica, commits: Array(commits[..<version]))
    }
    let old = state(from)
    let new = state(end)
    var json = JSONWriter()
    json.object { json in
      json.key("list")
      json.string(list)
      json.key("from")
      json.number(from)
      json.key("to")
      json.number(end)
      let diff = _StateDiff(old: old, new: new)
      json.key("sections")
      Self.writeChanges(diff.sections, into: &json)
      json.key("items")
      Self.writeChanges(diff.items, into: &json)
    }
    return SyncReadResponse(status: 200, body: json.bytes)
  }

  func model(_ list: String) async throws(SyncHubError) -> (_GenericReplica, [_GenericCommit]) {
    let hosted = try acquire(list)
    defer { release(list) }
    do {
      let replica = try await hosted.readModel()
      return (replica, replica.commits)
    } catch let error as SyncHubError {
      throw error
    } catch let error as SyncStorageError {
      throw .storage(error)
    } catch {
      throw .storage(.damaged(list: list, reason: "\(error)"))
    }
  }

  static func fold(_ replica: _GenericReplica, commits: [_GenericCommit]) -> ListSnapshot<JournalValueElement, JournalValueElement> {
    let scratch = _GenericReplica(replica: ReplicaID(rawValue: 0), listID: replica.listID, base: replica.base)
    _ = try? scratch.receive(commits)
    return scratch.snapshot
  }

  static func writeSections(_ snapshot: ListSnapshot<JournalValueElement, JournalValueElement>, into json: inout JSONWriter) {
    json.array { json in
      for section in snapshot.sections {
        json.object { json in
          json.key("id")
          json.value(section.id)
          json.key("content")
          json.value(section.content)
          json.key("items")
          writeNodes(snapshot.outline(ofSection: section.id)?.roots ?? [], into: &json)
        }
      }
    }
  }

  static func writeNodes(_ nodes: [ListOutline<JournalValueElement>.Node], into json: inout JSONWriter) {
    json.array { json in
      for node in nodes {
        json.object { json in
          json.key("id")
          json.value(node.item.id)
          json.key("content")
          json.value(node.item.content)
          json.key("expanded")
          json.bool(node.isExpanded)
          json.key("children")
          writeNodes(node.children, into: &json)
        }
      }
    }
  }

  static func writeChanges(_ changes: _StateDiff.Changes, into json: inout JSONWriter) {
    json.object { json in
      for (key, values) in [
        ("inserted", changes.inserted), ("deleted", changes.deleted), ("updated", changes.updated), ("moved", changes.moved),
      ] {
        json.key(key)
        json.array { json in for value in values { json.value(value) } }
      }
    }
  }
}

import ArgumentParser
import ListHistory
import ListReplica
import ListState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal sync A B`: two replica journals exchange what the other lacks.
struct SyncCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Exchange commits between two replica journals of one list, both ways.",
    discussion: """
      Each side receives, as one checksummed batch (the wire form replicas exchange), the \
      commits the other holds and it lacks; both then hold the same commits and show the same \
      list. Prints what moved each way (commits and batch bytes), how many commits already held \
      were applied again because new ones sort before them (rebased), and, for each side's own \
      commits, the changes the merge overrode (`your change to item X was overridden: …`). \
      Syncing again moves nothing. Both journals are locked meanwhile; a damaged batch is \
      refused whole.

      Example:
        listjournal sync phone.journal laptop.journal
      """)

  @Argument(help: "One replica journal.")
  var first: String

  @Argument(help: "The other replica journal (of the same list).")
  var second: String

  func run() throws {
    try reportingFailures { () throws(ListLanguageError) in
      guard realPath(first) != realPath(second) else {
        throw ListLanguageError(message: "'\(first)' and '\(second)' are the same journal: sync needs two replicas")
      }
      let a = try open(first)
      defer { try? a.close() }
      let b = try open(second)
      defer { try? b.close() }
      guard a.listID == b.listID else {
        throw ListLanguageError(
          message: "'\(first)' and '\(second)' are replicas of different lists "
            + "(\(ReplicaID(rawValue: a.listID)) and \(ReplicaID(rawValue: b.listID))): nothing was exchanged")
      }
      let out = OutputStream.standardOutput
      // Both batches are cut before either side receives, so each carries only its sender's commits.
      let toB = try batch(from: a, to: b)
      let toA = try batch(from: b, to: a)
      let mergedAtB = try deliver(toB, to: b, path: second)
      let mergedAtA = try deliver(toA, to: a, path: first)
      out.writeLine(Self.line(from: first, to: second, batch: toB, merge: mergedAtB))
      out.writeLine(Self.line(from: second, to: first, batch: toA, merge: mergedAtA))
      let overrides = (mergedAtB?.overrides ?? []) + (mergedAtA?.overrides ?? [])
      for (path, replica) in [(first, a), (second, b)] {
        var seen = Set<ReplicaJournals.Generic.Override>()
        for override in overrides where override.commit.replica == replica.replicaID && seen.insert(override).inserted {
          out.writeLine("\(path): your change to \(Self.subject(override.subject)) was overridden: \(override.reason) (\(override.commit) #\(override.operation))")
        }
      }
      let agree = a.snapshot == b.snapshot && a.versionVector == b.versionVector
      out.writeLine(
        agree
          ? "in sync: both hold \(CloneCommand.commits(a.commitCount)), version vector \(a.versionVector)"
          : "not in sync after the exchange (a bug): '\(first)' holds \(a.commitCount), '\(second)' \(b.commitCount)")
    }
  }

  private func open(_ path: String) throws(ListLanguageError) -> ReplicaJournals.Generic {
    do {
      return try ReplicaJournals.Generic.open(at: path, codec: .generic(), configuration: ReplicaJournals.configuration)
    } catch {
      throw ListLanguageError(message: ReplicaJournals.describe(error))
    }
  }

  /// What `receiver` lacks of `sender`'s commits, as a wire batch; nil when nothing.
  private func batch(from sender: ReplicaJournals.Generic, to receiver: ReplicaJournals.Generic) throws(ListLanguageError)
    -> (batch: ReplicaBatch, commits: Int)?
  {
    let missing = sender.changes(since: receiver.versionVector).count
    guard missing > 0 else { return nil }
    do {
      return (try sender.batch(since: receiver.versionVector, codec: .generic()), missing)
    } catch {
      throw ListLanguageError(message: ReplicaJournals.describe(error))
    }
  }

  private func deliver(
    _ batch: (batch: ReplicaBatch, commits: Int)?, to receiver: ReplicaJournals.Generic, path: String
  ) throws(ListLanguageError) -> ReplicaJournals.Generic.Merge? {
    guard let batch else { return nil }
    do {
      return try receiver.receive(batch.batch, codec: .generic())
    } catch {
      throw ListLanguageError(message: "'\(path)' refused the batch: \(ReplicaJournals.describe(error))")
    }
  }

  static func line(
    from: String, to: String, batch: (batch: ReplicaBatch, commits: Int)?, merge: ReplicaJournals.Generic.Merge?
  ) -> String {
    guard let batch, let merge else { return "\(from) → \(to): nothing to send" }
    return "\(from) → \(to): \(CloneCommand.commits(merge.received.count)) (\(batch.batch.bytes.count) bytes), "
      + "\(merge.rebased) rebased"
  }

  static func subject(_ subject: ReplicaOverride<JournalValueElement, JournalValueElement>.Subject) -> String {
    switch subject {
    case .item(let id): "item \(ListTokenizer.quoted(id.displayText))"
    case .section(let id): "section \(ListTokenizer.quoted(id.displayText))"
    }
  }
}

/// The file's canonical path (the path itself when it cannot be resolved): tells two names of
/// one file apart from two files.
private func realPath(_ path: String) -> String {
  guard let resolved = realpath(path, nil) else { return path }
  defer { free(resolved) }
  return String(cString: resolved)
}

import Foundation
import ListSync
import SyncStorageConformance
import Testing

/// The conformance checks themselves, with no database: they pass on the plain in-memory
/// storage and catch each way a broken storage breaks the contract.
struct SyncStorageConformanceTests {
  @Test func theInMemoryStoragePassesEveryCheck() async throws {
    let storage = InMemorySyncStorage()
    try await SyncStorageConformance.checkGenesisAndCreate(storage, list: "genesis")
    try await SyncStorageConformance.checkCreateRace([storage], list: "race")
    try await SyncStorageConformance.checkIdempotentAppends(storage, list: "idempotent")
    try await SyncStorageConformance.checkConflictingTwins(storage, list: "twins")
    try await SyncStorageConformance.checkReads(storage, list: "reads", commits: 500, seed: 3)
    try await SyncStorageConformance.checkSerialPositions([storage], list: "serial", writers: 6, commitsPerWriter: 200, seed: 4)
    try await SyncStorageConformance.checkFollowingReaders([storage], list: "follow", writers: 4, appendsPerWriter: 30, seed: 5)
    try await SyncStorageConformance.checkClose(storage, list: "close")
  }

  /// The file storage's own reads by position (catch-up's pages among them), on a real folder.
  @Test func theFileStoragePassesTheReadChecks() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let storage = try SyncFileStorage(directory: directory)
    try await SyncStorageConformance.checkReads(storage, list: "reads", commits: 500, seed: 3)
    try await storage.close()
  }

  @Test func aStorageAcceptingConflictingTwinsIsCaught() async throws {
    await #expect(throws: ConformanceFailure.self) {
      try await SyncStorageConformance.checkConflictingTwins(InMemorySyncStorage(faults: .acceptsConflictingTwins), list: "t")
    }
  }

  @Test func aStorageKeepingPartOfARefusedAppendIsCaught() async throws {
    await #expect(throws: ConformanceFailure.self) {
      try await SyncStorageConformance.checkConflictingTwins(InMemorySyncStorage(faults: .keepsPartOfRefusedAppends), list: "t")
    }
  }

  @Test func aStorageStoringDuplicatesIsCaught() async throws {
    await #expect(throws: ConformanceFailure.self) {
      try await SyncStorageConformance.checkIdempotentAppends(InMemorySyncStorage(faults: .storesDuplicates), list: "d")
    }
    await #expect(throws: ConformanceFailure.self) {
      try await SyncStorageConformance.checkSerialPositions(
        [InMemorySyncStorage(faults: .storesDuplicates)], list: "s", writers: 3, commitsPerWriter: 50, seed: 6)
    }
  }
}

import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// Listens on a pooled connection held for as long as it lives; when it drops (the database
  /// restarted, the network failed) it leases another, with a growing pause between tries.
  ///
  /// Notices sent while no connection listened are lost, so once listening again it reads
  /// every list's last position and announces the lists that moved past what this instance
  /// knew. Runs until the storage is closed or the task is cancelled.
  func listenForExternalAppends() async {
    var reconnecting = false
    var pause = Duration.milliseconds(50)
    while !Task.isCancelled, !state.withLock({ $0.closed }) {
      do {
        // The tables exist before the first catch-up reads them (a new database has none).
        try await ready()
        try await client.withConnection { connection in
          try await connection.listen(on: Self.notificationChannel) { notices in
            // Runs after LISTEN on the same connection, so no append falls between the two.
            try await self.catchUp(on: connection, announcing: reconnecting)
            reconnecting = true
            pause = .milliseconds(50)
            for try await notice in notices { self.receive(notice.payload) }
          }
        }
      } catch {
        if Task.isCancelled { return }
        logger.warning(
          "listening for other instances' appends failed; retrying",
          metadata: ["error": "\(_BackendError.storageError(error, doing: "listening"))"])
      }
      reconnecting = true
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .seconds(2))
    }
  }

  /// Reads every list's last position; announces the ones past what this instance knew when
  /// `announcing`, else (the first time) only records them.
  private func catchUp(on connection: PostgresConnection, announcing: Bool) async throws {
    let rows = try await connection.query("SELECT name, last_position FROM lists", logger: logger)
    for try await (name, position) in rows.decode((String, Int64).self) {
      let notice = SyncAppendNotice(list: name, lastPosition: UInt64(bitPattern: position))
      if announcing {
        announce(notice)
      } else {
        state.withLock { _ = $0.learn(notice.list, position: notice.lastPosition) }
      }
    }
  }

  /// A notice's payload: the sender's instance identifier (hex), the last position, the list.
  func receive(_ payload: String) {
    let fields = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count == 3, let sender = UInt64(fields[0], radix: 16), let position = UInt64(fields[1]) else {
      logger.warning("ignoring a malformed notice on \(Self.notificationChannel)", metadata: ["payload": "\(payload)"])
      return
    }
    guard sender != instanceID else { return }
    announce(SyncAppendNotice(list: String(fields[2]), lastPosition: position))
  }
}

import ListSync

/// Collects a storage's `externalAppends()` in the background, for checks that wait for one.
public actor NoticeCollector {
  public private(set) var notices: [SyncAppendNotice] = []
  private var task: Task<Void, Never>?

  public init(_ stream: AsyncStream<SyncAppendNotice>) {
    task = nil
    Task { await self.start(stream) }
  }

  private func start(_ stream: AsyncStream<SyncAppendNotice>) {
    task = Task { [weak self] in
      for await notice in stream { await self?.add(notice) }
    }
  }

  private func add(_ notice: SyncAppendNotice) { notices.append(notice) }

  /// Waits until a notice says `list` reached `position` or beyond.
  public func wait(for list: String, position: UInt64, timeout: Duration) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !notices.contains(where: { $0.list == list && $0.lastPosition >= position }) {
      guard clock.now < deadline else {
        throw ConformanceFailure("no notice of '\(list)' reaching \(position) within \(timeout); heard \(notices)")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  public func stop() {
    task?.cancel()
  }
}

/// How a ``SyncClient`` pushes and reconnects.
///
/// ```swift
/// var configuration = SyncClientConfiguration()
/// configuration.maxBackoff = .seconds(30)      // a phone on a bad network
/// configuration.autoPushInterval = nil         // push only through transaction(label:_:) and push()
/// ```
public struct SyncClientConfiguration: Sendable {
  /// The first wait before reconnecting; doubled per failed attempt up to ``maxBackoff``, with
  /// jitter so clients a server dropped together do not return together.
  public var initialBackoff: Duration = .milliseconds(50)
  public var maxBackoff: Duration = .seconds(5)
  /// The most commits one push carries (the server's limit is 65,536 by default).
  public var maxCommitsPerPush: Int = 4096
  /// How often a connected client looks for local commits to push (a transaction through
  /// ``SyncClient/transaction(label:_:)`` pushes at once); nil: only when ``SyncClient/push()``
  /// is called.
  public var autoPushInterval: Duration? = .milliseconds(20)

  public init() {}
}

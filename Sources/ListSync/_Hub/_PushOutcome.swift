/// What a push came to: an ack or a refusal.
enum _PushOutcome: Sendable {
  case stored(stored: Int, duplicates: Int)
  case refused(SyncErrorCode, String)
}

/// What a hello came to: the frames to send first (welcome, catch-up), or a refusal that closes.
enum _HelloOutcome: Sendable {
  case welcomed
  case refused(SyncErrorCode, String)
}

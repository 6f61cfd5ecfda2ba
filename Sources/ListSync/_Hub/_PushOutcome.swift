/// What a push came to: an ack or a refusal.
enum _PushOutcome: Sendable {
  case stored(stored: Int, duplicates: Int)
  case refused(SyncErrorCode, String)
}

/// What a hello came to: the frames to send first (welcome, catch-up), or a refusal that closes.
enum _HelloOutcome: Sendable {
  case welcomed
  case refused(SyncErrorCode, String)
}

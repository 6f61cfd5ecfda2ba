/// What a hello came to: welcomed (the welcome queued, catch-up under way), or a refusal that closes.
enum _HelloOutcome: Sendable {
  case welcomed
  case refused(SyncErrorCode, String)
}

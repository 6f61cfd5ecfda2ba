/// Renders `diff` between two versions: text (`- deleted`, `+ inserted`, `→ moved`,
/// `~ reloaded` with ids) or the JSON shape of the README.
///
/// The changeset comes from ListDiff; until that lands the command reports it is unavailable.
enum ChangesetRenderer {
  static func render(
    from: Int, to: Int, session: any JournalSession, json: Bool, style: TerminalStyle
  ) throws(ListLanguageError) -> String {
    _ = try session.snapshot(at: from)
    _ = try session.snapshot(at: to)
    throw ListLanguageError(message: "diff is not available in this build yet (it needs the ListDiff module)")
  }
}

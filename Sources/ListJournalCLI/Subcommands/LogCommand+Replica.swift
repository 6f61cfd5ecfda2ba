extension LogCommand {
  /// `log` of a replica journal: its commits in the agreed order.
  func printReplicaLog(_ session: any ReplicaLogging) throws(ListLanguageError) {
    if graph {
      throw ListLanguageError(
        message: "--graph draws a single-writer journal's undo tree; '\(journal)' is a replica journal, "
          + "whose history is one agreed order of commits")
    }
    let entries = session.replicaLogEntries(newest: limit)
    OutputStream.standardOutput.writeLine(
      format == .json ? ReplicaLogRenderer.json(entries) : ReplicaLogRenderer.text(entries, style: .forStandardOutput()))
  }
}

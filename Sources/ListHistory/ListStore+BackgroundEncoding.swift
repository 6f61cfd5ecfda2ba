extension ListStore {
  /// Returns once every change so far has been handed to the sink, when records are encoded
  /// in the background (``ReplayOptions/encodingInBackground``); throws the background
  /// encoder's failure (a ``HistoryError`` naming the record that could not be encoded, or the
  /// sink's error). A no-op otherwise. Never takes the store's lock (safe inside a transaction
  /// body or a callback that runs under it).
  @inlinable
  package func _drainRecords() throws {
    try backgroundEncoder?.drain()
  }

  /// Later changes (and drains) throw `error`, which the sink reported outside the background
  /// encoder (a failed flush); what is still queued is dropped. A no-op without one.
  @inlinable
  package func _failRecords(with error: any Error) {
    backgroundEncoder?.fail(with: error)
  }

  /// Later changes throw `error` (the sink is being closed); call before the last
  /// ``_drainRecords()``, which still writes what was queued.
  /// A no-op without a background encoder (the sink itself refuses them then).
  @inlinable
  package func _closeRecords(failingLaterWith error: any Error) {
    backgroundEncoder?.close(failingLaterWith: error)
  }
}

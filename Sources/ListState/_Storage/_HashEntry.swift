/// One key-value pair of a ``_HashTree`` with the key's hash (kept so that searching and
/// splitting never rehash).
@usableFromInline
struct _HashEntry<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline
  var hash: UInt64
  @usableFromInline
  var key: Key
  @usableFromInline
  var value: Value

  @inlinable
  init(hash: UInt64, key: Key, value: Value) {
    self.hash = hash
    self.key = key
    self.value = value
  }
}

/// A key and its value as a ``_HashTree`` leaf stores them (the hash lives in a separate array).
@usableFromInline
struct _HashItem<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline
  var key: Key
  @usableFromInline
  var value: Value

  @inlinable
  init(key: Key, value: Value) {
    self.key = key
    self.value = value
  }
}

/// Records of new items collected for one bulk insertion into the record map: the keys and the
/// records in two arrays.
///
/// Two arrays rather than one array of `(key, record)` pairs: the bulk build reads the keys
/// alone (to hash and sort them) and then each record once, and an element of a tuple array is
/// copied through the runtime's generic tuple witnesses, slow for every element of a large
/// build. The records are optional so that the build can take each one out
/// (``take(_:)``) instead of copying it and releasing the original afterwards.
///
/// ```swift
/// var newRecords = _NewRecords<Int, String>()
/// newRecords.append(1, "one")
/// newRecords.keys      // [1]
/// newRecords.take(0)   // "one"
/// ```
@usableFromInline
struct _NewRecords<Key, Record> {
  @usableFromInline
  var keys: [Key] = []
  @usableFromInline
  var records: [Record?] = []

  @inlinable
  init() {}

  @inlinable
  var count: Int { keys.count }

  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    keys.reserveCapacity(capacity)
    records.reserveCapacity(capacity)
  }

  /// Appends `record` under `key`.
  ///
  /// The record is consumed, so the caller's new record moves into the array: a borrowed one
  /// would be copied (for a record whose layout depends on generic parameters, through the
  /// runtime's value witnesses) and the caller's destroyed afterwards, once per item of a build.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func append(_ key: Key, _ record: consuming Record) {
    keys.append(key)
    records.append(consume record)
  }

  /// Moves the record at `index` out (each record is taken once).
  @inlinable
  mutating func take(_ index: Int) -> Record {
    records[index].take()!
  }
}

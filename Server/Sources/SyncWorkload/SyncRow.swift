import ListState

/// A row of the sync workload's lists: an identifier and a value that edits change.
///
/// ```swift
/// let row = SyncRow(id: "c3-17", value: "milk")
/// ```
///
/// - Complexity: O(1) storage beyond its two strings.
public struct SyncRow: ListElement, Codable, Hashable, Sendable {
  public var id: String
  public var value: String

  public init(id: String, value: String) {
    self.id = id
    self.value = value
  }
}

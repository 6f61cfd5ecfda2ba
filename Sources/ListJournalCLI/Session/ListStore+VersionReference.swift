import ListHistory
import ListState

extension ListStore {
  /// The version a `N`, `head` or `head~N` reference names, in this store's undo tree
  /// (`head~N` follows parents, so it can reach across a branch point).
  ///
  /// - Throws: a ``ListLanguageError`` naming the missing version or the head's too-short ancestry.
  /// - Complexity: O(N) for `head~N`.
  func resolve(_ reference: VersionReference) throws(ListLanguageError) -> Int {
    let latest = latestVersion.rawValue
    switch reference {
    case .number(let number):
      guard number <= latest, info(for: Version(number)) != nil else {
        throw ListLanguageError(message: "no version \(number) (the journal has versions 0...\(latest))")
      }
      return number
    case .head(let back):
      var cursor = head
      for _ in 0..<back {
        guard let parent = info(for: cursor)?.parent else {
          throw ListLanguageError(message: "no version \(reference): the head \(head.rawValue) has fewer ancestors")
        }
        cursor = parent
      }
      return cursor.rawValue
    }
  }
}

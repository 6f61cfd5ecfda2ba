/// The undo labels of the versions gestures create — what the Edit menu shows after "Undo" —
/// localised by the app.
///
/// ```swift
/// presenter.labels = ListGestureLabels(expand: "Ouvrir", collapse: "Fermer", move: "Déplacer", delete: "Supprimer")
/// ```
public struct ListGestureLabels: Hashable, Sendable {
  /// A disclosure tap that opens a row.
  public var expand: String
  /// A disclosure tap that closes a row.
  public var collapse: String
  /// A drag that reorders rows.
  public var move: String
  /// A swipe (or edit-mode) delete.
  public var delete: String

  /// Labels; the defaults are English.
  public init(expand: String = "Expand", collapse: String = "Collapse", move: String = "Move", delete: String = "Delete") {
    self.expand = expand
    self.collapse = collapse
    self.move = move
    self.delete = delete
  }
}

import Foundation
import ListJournal

/// A note: an identity and a title; notes nest under notes.
public struct Note: ListElement, Codable, Hashable, Sendable {
  public let id: UUID
  public var title: String

  public init(id: UUID = UUID(), title: String) {
    self.id = id
    self.title = title
  }
}

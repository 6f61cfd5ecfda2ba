/// The one section a ``ListSectionSnapshot`` keeps its outline in (a list needs a section).
@usableFromInline
struct _OneSection: ListElement {
  @usableFromInline var id: Int

  @inlinable
  init() { id = 0 }
}

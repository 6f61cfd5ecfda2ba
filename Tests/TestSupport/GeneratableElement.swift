import ListState

/// An element the random operation generator can make: the `index`-th identifier of a small pool,
/// with content `variant` (so that content updates can be generated and observed).
///
/// Elements made from the same `index` have the same `id`; different indexes give different ids.
/// Types whose content is their identifier (`Int`, `String`) ignore `variant`.
///
/// ```swift
/// TestItem.generated(index: 3, variant: 7)   // TestItem("i3", content: "v7")
/// Int.generated(index: 3, variant: 7)        // 3
/// ```
public protocol GeneratableElement: ListElement {
  static func generated(index: Int, variant: Int) -> Self
}

extension TestItem: GeneratableElement {
  public static func generated(index: Int, variant: Int) -> TestItem { TestItem("i\(index)", content: "v\(variant)") }
}

extension TestSection: GeneratableElement {
  public static func generated(index: Int, variant: Int) -> TestSection { TestSection("s\(index)", content: "v\(variant)") }
}

extension Int: GeneratableElement {
  public static func generated(index: Int, variant: Int) -> Int { index }
}

extension String: GeneratableElement {
  public static func generated(index: Int, variant: Int) -> String { "e\(index)" }
}

/// Up to three identifiers as `text` prints them, then "(+N)" for the rest: how summaries name
/// the items or sections an event or operation touched.
func shortList<ID>(_ list: [ID], _ text: (ID) -> String) -> String {
  let shown = list.prefix(3).map(text).joined(separator: " ")
  return list.count > 3 ? "\(shown) (+\(list.count - 3))" : shown
}

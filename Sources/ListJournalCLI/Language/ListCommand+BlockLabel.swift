extension [ListCommand] {
  /// The label of a `begin` … `commit` block: its commands' labels in order without repeats
  /// ("Move Item, Delete Item"), or "N Changes" past three.
  var blockLabel: String {
    var labels: [String] = []
    for command in self where labels.last != command.label { labels.append(command.label) }
    return labels.count <= 3 ? labels.joined(separator: ", ") : "\(count) Changes"
  }
}

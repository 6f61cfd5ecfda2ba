import ListState

/// The list the CLI edits: string sections and string items.
typealias TextSnapshot = ListSnapshot<TextSection, TextItem>

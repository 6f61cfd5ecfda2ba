// The umbrella module: `import ListJournal` gives an app everything it needs.
@_exported import ListState
@_exported import ListHistory
@_exported import JournalFormat
@_exported import ListDiff

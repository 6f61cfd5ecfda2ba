import ArgumentParser

/// `--format text|json`.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
  case text, json
}

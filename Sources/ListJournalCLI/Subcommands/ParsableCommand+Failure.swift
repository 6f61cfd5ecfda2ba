import ArgumentParser

extension ParsableCommand {
  /// Runs `body`, turning a ``ListLanguageError`` into `error: …` on stderr and exit code 1.
  func reportingFailures(_ body: () throws(ListLanguageError) -> Void) throws {
    do throws(ListLanguageError) {
      try body()
      OutputStream.standardOutput.flush()
    } catch {
      printError(error.line > 0 ? error.description : error.message)
      throw ExitCode(1)
    }
  }

  /// Parses a `--at`/`FROM`/`TO` version argument.
  func versionReference(_ text: String) throws(ListLanguageError) -> VersionReference {
    guard let reference = VersionReference(text) else {
      // A negative number most likely means "so many before the head".
      let hint = text.hasPrefix("-") && Int(text.dropFirst()) != nil ? "; \(text.dropFirst()) before the head is head~\(text.dropFirst())" : ""
      throw ListLanguageError(message: "'\(text)' is not a version (N, head or head~N\(hint))")
    }
    return reference
  }
}

import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `listjournal serve …`: runs the sync server, `listjournal-server serve …`.
///
/// The server is a separate executable (the nested `Server/` package) so that the core package
/// never builds a web server; like git's external subcommands, it is looked up beside this
/// executable first, then on `PATH`, and replaces this process (signals reach it directly).
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Run the sync server (listjournal-server serve …) that hosts shared lists.",
    discussion: """
      Every argument is passed to `listjournal-server serve`, found beside listjournal or on PATH; \
      build it with `swift build -c release --package-path Server`. \
      `listjournal serve --help` shows the server's options.

      Example:
        listjournal serve --port 8080 --data lists --tokens tokens.json
      """)

  @Argument(parsing: .captureForPassthrough, help: "Options for listjournal-server serve.")
  var arguments: [String] = []

  static let serverName = "listjournal-server"

  func run() throws {
    let beside = Self.directory(of: Self.ownExecutablePath())
    guard let server = Self.findServer(beside: beside, path: getenv("PATH").map { String(cString: $0) }) else {
      printError(Self.missingServerMessage(beside: beside))
      throw ExitCode(1)
    }
    let argv = [server, "serve"] + arguments
    var cArguments = argv.map { strdup($0) }
    cArguments.append(nil)
    execv(server, cArguments)
    // Only reached when exec failed.
    printError("cannot run '\(server)': \(errorMessage())")
    throw ExitCode(1)
  }

  /// What `serve` says when no server executable is found.
  static func missingServerMessage(beside directory: String?) -> String {
    let place = directory.map { "beside listjournal (\($0)) or " } ?? ""
    return """
      `listjournal serve` runs the sync server, \(serverName), which was not found \(place)on PATH.
      Build it from a checkout of ListJournal with:
        swift build -c release --package-path Server
      then put Server/.build/release/\(serverName) beside listjournal or on PATH.
      """
  }

  /// The first executable `listjournal-server` in `directory`, then in `PATH`'s folders.
  static func findServer(beside directory: String?, path: String?) -> String? {
    var folders: [String] = directory.map { [$0] } ?? []
    folders += (path ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
    for folder in folders {
      let candidate = folder.hasSuffix("/") ? folder + serverName : folder + "/" + serverName
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// This process's executable: `/proc/self/exe` where it exists, else `argv[0]` when it has a `/`.
  static func ownExecutablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 {
      return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let first = CommandLine.arguments.first ?? ""
    return first.contains("/") ? first : nil
  }

  static func directory(of path: String?) -> String? {
    guard let path, let slash = path.lastIndex(of: "/") else { return nil }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

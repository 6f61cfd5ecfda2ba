#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `close(2)` under a name that methods called `close()` do not shadow.
@inline(__always)
func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}

/// The message of an `errno` value.
func errorMessage(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// `exit(3)` under a name that `ParsableCommand.exit(withError:)` does not shadow.
func exitProcess(_ code: Int32) -> Never {
  exit(code)
}

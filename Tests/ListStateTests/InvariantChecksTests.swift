@testable import ListState
import Testing

/// The test command compiles the invariant checks in (`Tools/test` defines
/// `LISTJOURNAL_INVARIANTS`); without them every other test here would check much less.
@Suite("Invariant checks are compiled into the test build")
struct InvariantChecksTests {
  @Test func theTestBuildChecksInvariants() {
    #expect(
      _invariantChecksCompiled,
      "build the tests with -Xswiftc -DLISTJOURNAL_INVARIANTS (Tools/test does)")
  }
}

import Dispatch

/// Releases `value` on a background queue instead of here: for a large structure built during a
/// replay and no longer needed (a fold's records hold every item: freeing them is a pass over
/// cold memory, 0.1–0.2 s of a 10M-event replay's serial end), so that the caller does not wait
/// for it. The value must not be shared, or the queue only drops a reference.
@inlinable
package func _releaseInBackground<Value: Sendable>(_ value: consuming Value) {
  let retired = consume value
  DispatchQueue.global(qos: .utility).async { withExtendedLifetime(retired) {} }
}

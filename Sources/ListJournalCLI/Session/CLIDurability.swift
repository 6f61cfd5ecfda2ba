import ArgumentParser

/// The `--durability` option: when a commit counts as durable.
///
/// `strict` syncs every commit, `grouped` shares one sync among the commits of a few
/// milliseconds (and before waiting for input), `relaxed` leaves it to the page cache.
enum CLIDurability: String, CaseIterable, ExpressibleByArgument, Sendable {
  case strict, grouped, relaxed
}

# Sourced by the benchmark scripts of the side packages under Tools/ (Benchmarks, HistoryBench,
# DiffBench), which depend on the root package by path.
#
#   release_build RUNNER_SOURCE [swift build arguments...]
#
# Builds the current package in release mode. Two incremental-build traps are avoided:
# - RUNNER_SOURCE is touched first: the runner's dependency file lists only the modules it
#   imports directly, so library changes behind them (or @inlinable code specialized into the
#   runner) would otherwise leave old model code in the binary.
# - A file added to or removed from the root package leaves this package's build manifest
#   stale ("cannot find type ... in scope"): on failure the manifest is regenerated once.
release_build() {
  local runner="$1"
  shift
  touch "$runner"
  if ! swift build -c release "$@" >/dev/null 2>&1; then
    rm -f .build/release.yaml .build/build.db
    swift build -c release "$@" 2>&1 | grep -E 'error' || true
  fi
}

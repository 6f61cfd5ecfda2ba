# Sourced by the benchmark scripts. Builds a runner of Tools/Benchmarks, the package that depends
# on the root package by path as an app does, or a product of the root package itself (the
# `listjournal` CLI, `JournalTool`), in the build a user gets: `swift build -c CONFIG` with the
# default flags and no environment.
#
#   runner="$(benchmark_build RUNNER [debug|release])"   # prints the runner's executable
#   runner="$(release_build RUNNER)"                     # the same, release
#   bin="$(root_release_build PRODUCT)"                  # a root package product, release
#   "$benchmark_results/NAME.txt"                        # where a runner's last run is saved
#
# Two incremental-build traps are avoided:
# - The runner's sources are touched first: its dependency file lists only the modules it
#   imports directly, so library changes behind them (or @inlinable code specialized into the
#   runner) would otherwise leave old model code in the binary.
# - A file added to or removed from the root package leaves this package's build manifest
#   stale ("cannot find type ... in scope"): on failure the manifest is regenerated once.
benchmark_package="$(cd "$(dirname "${BASH_SOURCE[0]}")/../Benchmarks" && pwd)"
root_package="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
benchmark_results="$benchmark_package/Results"

benchmark_build() {
  local runner="$1" configuration="${2:-release}" log
  log="$(mktemp)"
  echo "building $runner ($configuration)..." >&2
  touch "$benchmark_package/Sources/$runner"/*.swift
  if ! swift build --package-path "$benchmark_package" -c "$configuration" --product "$runner" >"$log" 2>&1; then
    rm -f "$benchmark_package/.build/$configuration.yaml" "$benchmark_package/.build/build.db"
    if ! swift build --package-path "$benchmark_package" -c "$configuration" --product "$runner" >"$log" 2>&1; then
      grep -E 'error' "$log" >&2 || cat "$log" >&2
      rm -f "$log"
      return 1
    fi
  fi
  rm -f "$log"
  echo "$(swift build --package-path "$benchmark_package" -c "$configuration" --show-bin-path)/$runner"
}

release_build() {
  benchmark_build "$1" release
}

# JournalTool's sources are touched first, as a runner's are: it imports only some of the
# modules whose inlinable code it specializes (the CLI imports every one it uses).
root_release_build() {
  local product="$1" log
  log="$(mktemp)"
  echo "building $product (release)..." >&2
  if [ "$product" = JournalTool ]; then touch "$root_package/Tools/JournalTool"/*.swift; fi
  if ! swift build --package-path "$root_package" -c release --product "$product" >"$log" 2>&1; then
    grep -E 'error' "$log" >&2 || cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
  echo "$(swift build --package-path "$root_package" -c release --show-bin-path)/$product"
}

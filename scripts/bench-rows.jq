# scripts/bench-rows.jq: Google Benchmark JSON (bin/bench) -> flat rows.
#
# Output: a header line, then one line per benchmark, as CSV (quoted where
# needed) or, with --arg fmt tsv, tab-separated:
#   jq -r --arg fmt csv -f scripts/bench-rows.jq bench.json > bench.csv
# Rows are in registration order (matrix lines, registry order of solvers).
# With repetitions, a benchmark's row is its "mean" aggregate; otherwise its
# one run. Times are in seconds. A name reads solver/game[:variant][/threads:N]
# followed by Google Benchmark's /manual_time. game_positions is the largest
# positions count any solver reported for the same game variant (the
# variant's size, for the growth plots).
def counters: ["hash", "unhash", "primitive", "generate_moves", "do_move", "undo_move",
               "parents", "calls", "edges", "db_reads", "db_writes", "sweeps"];
def seconds($t; $unit): if $t == null then null
    else $t * ({"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[$unit]) end;
def split_name: (.run_name | sub("/manual_time$"; "") | split("/")) as $p
    | {solver: $p[0], spec: $p[1],
       threads: (($p[2] // "") | if startswith("threads:") then ltrimstr("threads:") | tonumber
                                 else null end)}
    | . + {game: (.spec | split(":")[0]),
           variant: (.spec | if contains(":") then sub("^[^:]*:"; "") else "" end)};
def label_field($k): (.label // "") | split("; ") | map(select(startswith($k + "=")))
    | if length > 0 then .[0] | ltrimstr($k + "=") else "" end;
def value_of: (.label // "") | (split("; ")[0] // "") | (split(" in ")[0] // "");

[.benchmarks[] | select(.run_type == "iteration" or .aggregate_name == "mean")]
| group_by(.run_name)
| map(if any(.[]; .aggregate_name == "mean") then map(select(.aggregate_name == "mean"))[0]
      else .[0] end)
| sort_by(.family_index)
| map(. as $b | split_name + {
      value: ($b | value_of),
      series: ($b | label_field("series")),
      iterations: $b.iterations,
      time_s: seconds($b.real_time; $b.time_unit),
      counted_s: $b.counted_seconds,
      count_overhead: $b.count_overhead,
      positions: $b.positions,
      peak_bytes: $b.peak_bytes,
      peak_rss_bytes: $b.peak_rss_bytes,
      positions_per_second: $b.positions_per_second,
      used_threads: $b.threads_used,
      error: ($b.error_message // "")}
    + ([counters[] as $c | {($c): $b[$c]}] | add))
| (group_by(.spec) | map({key: .[0].spec, value: (map(.positions // 0) | max)}) | from_entries)
    as $size
| (["name", "solver", "game", "variant", "threads", "series", "value", "iterations", "time_s",
   "counted_s", "count_overhead", "positions"] + counters
  + ["peak_bytes", "peak_rss_bytes", "positions_per_second", "game_positions", "error"],
  (.[] | [.solver + "/" + .spec + (if .threads then "/threads:\(.threads)" else "" end),
          .solver, .game, .variant, .threads, .series, .value, .iterations, .time_s,
          .counted_s, .count_overhead, .positions]
         + [.[counters[]]]
         + [.peak_bytes, .peak_rss_bytes, .positions_per_second,
            (if $size[.spec] > 0 then $size[.spec] else null end), .error]))
| if $fmt == "tsv" then @tsv else @csv end

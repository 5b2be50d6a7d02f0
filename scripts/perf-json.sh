# perf-json.sh: what perf-pairs.sh and perf-ab.sh read from `iwarp perf --details-json FILE`, sourced by both.
# Each function prints one figure of FILE's last result, or "-" where the build or the test does not give it.

# perf_cpu FILE : process CPU microseconds per message (both ends with --loopback)
perf_cpu() { jq -r '.results[-1] as $r | if ($r.cpu[0].cpu_s_per_GB // null) == null then "-"
    else ($r.cpu[0].cpu_s_per_GB * $r.bytes / 1000 * 1000 | round / 1000) end' "$1"; }
# perf_xcpu FILE : the cross-CPU round trip before/after the run in ns (docs/performance.md, "Two states of the
# machine")
perf_xcpu() { jq -r '(.cross_cpu_round_trip_ns // {}) as $x | [$x.before, $x.after]
    | map(if type == "number" then (. | round | tostring) else "-" end) | join("/")' "$1"; }
# perf_jit FILE : seconds the JIT's compilations took during the measurement
perf_jit() { jq -r '(.results[-1].cpu[0].jit_s // null)
    | if . == null then "-" else (. * 100 | round / 100 | tostring) end' "$1"; }

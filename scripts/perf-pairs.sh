#!/usr/bin/env bash
# perf-pairs.sh: iWARP beside plain TCP, as docs/performance.md measures them.
#
#   scripts/perf-pairs.sh [-r RUNS] [-b BASE_JAR] TEST [iwarp perf options...]
#
# Runs `./iwarp perf TEST --loopback OPTIONS` and `./iwarp perf tcp --loopback OPTIONS` back to back, RUNS
# times (default 3), and prints each pair, then the medians, the ranges and the ratio of the medians. TEST is
# write, read, send or atomic; with --latency the figure is the typical latency (iWARP's Write and Send
# latency are half a round trip, as TCP's ping-pong; Read's and Atomic's are a full round trip, compared
# with twice TCP's), else the message rate. --run-to-completion goes to the iWARP test only. With -b, each
# pair is preceded by the same iWARP test from BASE_JAR (another build's tools/target/iwarp.jar), so that a
# change is measured before and after in the same run, on a machine whose load moves. Bandwidth lines also give
# each test's process CPU per message (both ends, --loopback), which moves less with the load than the rate
# does, and the medians of it. Every test also gives the cross-CPU round trip before and after it (xcpu, ns;
# docs/performance.md, "Two states of the machine"): compare pairs made in the same state. Bandwidth lines also
# give the seconds the JIT's compilations took during each measurement (jit; iwarp perf notes on stderr when that
# is over a quarter of it: docs/performance.md, "Under load: the JIT starved"). Each line ends with the load
# average. Needs jq.
# Exit status: that of the first failed run, else 0.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
source "$root/scripts/perf-json.sh"
runs=3
base=
while [ $# -ge 2 ]; do
  case "$1" in
    -r) runs=$2; shift 2 ;;
    -b) base=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
[ -z "$base" ] || [ -f "$base" ] || { echo "perf-pairs: no jar $base" >&2; exit 2; }
test=$1; shift
command -v jq >/dev/null || { echo "perf-pairs: jq is needed (apt-get install jq)" >&2; exit 2; }
latency=false
tcp_args=()
for a in "$@"; do
  [ "$a" = "--latency" ] && latency=true
  [ "$a" = "--run-to-completion" ] || tcp_args+=("$a") # perf tcp always runs on its event loops
done
if $latency; then key='.results[-1].t_typical_usec'; unit='us typical'; else key='.results[-1].msg_rate_Mpps'; unit='Mpps'; fi
# Read and Atomic latency is a full round trip, TCP's ping-pong half of one: compare with twice TCP's.
tcp_factor=1
if $latency && { [ "$test" = read ] || [ "$test" = atomic ]; }; then tcp_factor=2; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# cpu JSON : the process CPU microseconds per message of the run's last size ("-" for latency or unknown)
cpu() { if $latency; then echo -; else perf_cpu "$1"; fi; }
iw=(); tc=(); bs=(); iwc=(); tcc=(); bsc=()
for i in $(seq 1 "$runs"); do
  before=
  if [ -n "$base" ]; then
    java ${IWARP_JAVA_OPTS:-} -jar "$base" perf "$test" --loopback "$@" --details-json "$tmp/base.json" > "$tmp/base.txt"
    b=$(jq -r "$key" "$tmp/base.json"); bs+=("$b"); bsc+=("$(cpu "$tmp/base.json")")
    before="base $b $unit$($latency || echo " (cpu ${bsc[-1]} us)"), "
  fi
  "$root/iwarp" perf "$test" --loopback "$@" --details-json "$tmp/iw.json" > "$tmp/iw.txt"
  "$root/iwarp" perf tcp --loopback "${tcp_args[@]}" --details-json "$tmp/tcp.json" > "$tmp/tcp.txt"
  a=$(jq -r "$key" "$tmp/iw.json"); b=$(jq -r "$key * $tcp_factor" "$tmp/tcp.json")
  iw+=("$a"); tc+=("$b"); iwc+=("$(cpu "$tmp/iw.json")"); tcc+=("$(cpu "$tmp/tcp.json")")
  x1=$(perf_xcpu "$tmp/iw.json"); x2=$(perf_xcpu "$tmp/tcp.json")
  c1=" (xcpu $x1 ns)"; c2=" (xcpu $x2 ns)"
  $latency || { c1=" (cpu ${iwc[-1]} us, xcpu $x1 ns, jit $(perf_jit "$tmp/iw.json") s)"
    c2=" (cpu ${tcc[-1]} us, xcpu $x2 ns, jit $(perf_jit "$tmp/tcp.json") s)"; }
  printf 'pair %d: %s%s %s %s%s, tcp %s %s%s; load %s\n' "$i" "$before" "$test" "$a" "$unit" "$c1" "$b" "$unit" \
    "$c2" "$(cut -d' ' -f1 /proc/loadavg)"
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
range() { printf '%s\n' "$@" | sort -g | awk 'NR==1{lo=$1} {hi=$1} END {print lo "-" hi}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}'; }
mi=$(median "${iw[@]}"); mt=$(median "${tc[@]}")
printf 'median %s %s (%s), tcp %s (%s); ratio %s\n' "$test" "$mi" "$(range "${iw[@]}")" "$mt" "$(range "${tc[@]}")" \
  "$(ratio "$mi" "$mt")"
if [ -n "$base" ]; then
  mb=$(median "${bs[@]}")
  printf 'median base %s (%s); ratio base %s\n' "$mb" "$(range "${bs[@]}")" "$(ratio "$mb" "$mt")"
fi
if ! $latency && [ "${iwc[0]}" != - ]; then
  printf 'median cpu per message: %s %s us, tcp %s us%s\n' "$test" "$(median "${iwc[@]}")" "$(median "${tcc[@]}")" \
    "$([ -n "$base" ] && echo ", base $(median "${bsc[@]}") us")"
fi

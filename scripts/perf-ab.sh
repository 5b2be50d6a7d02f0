#!/usr/bin/env bash
# perf-ab.sh: two builds of iwarp4j side by side, as docs/performance.md compares a change with its base.
#
#   scripts/perf-ab.sh [-r ROUNDS] JAR_A JAR_B TEST [iwarp perf options...]
#
# Runs `java -jar JAR perf TEST OPTIONS` for A and B, ROUNDS times (default 6), A first in odd rounds and B first
# in even ones (a run warms the machine for the next), and prints each run's message rate, process CPU per message
# (both ends, with --loopback), cross-CPU round trip before/after it (xcpu, ns; "Two states of the machine") and
# the seconds the JIT's compilations took during it (jit),
# then each build's medians and ranges. JAR_A and JAR_B are tools/target/iwarp.jar of two builds; B_JAVA_OPTS
# (e.g. a -D switch of an experiment) is given to B's JVM only. Needs jq.
# Exit status: that of the first failed run, else 0.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/perf-json.sh"
rounds=6
if [ "${1:-}" = -r ]; then rounds=$2; shift 2; fi
[ $# -ge 3 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
a=$1; b=$2; shift 2
for j in "$a" "$b"; do [ -f "$j" ] || { echo "perf-ab: no jar $j" >&2; exit 2; }; done
command -v jq >/dev/null || { echo "perf-ab: jq is needed (apt-get install jq)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
declare -A rates cpus
status=0
for i in $(seq 1 "$rounds"); do
  if [ $((i % 2)) = 1 ]; then order="A B"; else order="B A"; fi
  for w in $order; do
    jar=$a; opts=()
    if [ "$w" = B ]; then jar=$b; read -r -a opts <<< "${B_JAVA_OPTS:-}"; fi
    if ! java "${opts[@]}" -jar "$jar" perf "$@" --details-json "$tmp/$w.json" > "$tmp/$w.txt" 2>&1; then
      echo "round $i $w failed:" >&2; tail -5 "$tmp/$w.txt" >&2; status=1; continue
    fi
    r=$(jq -r '.results[-1].msg_rate_Mpps' "$tmp/$w.json")
    c=$(perf_cpu "$tmp/$w.json"); t=$(perf_jit "$tmp/$w.json"); x=$(perf_xcpu "$tmp/$w.json")
    rates[$w]+="$r "; cpus[$w]+="$c "
    printf 'round %d %s: %s Mpps, cpu %s us per message, xcpu %s ns, jit %s s; load %s\n' "$i" "$w" "$r" "$c" \
      "$x" "$t" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
summary() { tr ' ' '\n' | grep -v '^-\?$' | sort -g | awk '{v[NR]=$1} END {if (NR == 0) {print "-"; exit}
  printf "%s (%s-%s)", (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2, v[1], v[NR]}'; }
for w in A B; do
  printf 'median %s: %s Mpps, cpu %s us per message\n' "$w" "$(summary <<< "${rates[$w]:-}")" \
    "$(summary <<< "${cpus[$w]:-}")"
done
exit $status

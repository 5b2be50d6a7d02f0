#!/usr/bin/env bash
# fuzz.sh: runs the Jazzer fuzz targets in fuzzing mode, one JVM each, and says what they found.
#
#   scripts/fuzz.sh [--seconds N] [--jobs J] [--list] [TARGET...]
#
# TARGET is Class#method, Class (all its @FuzzTest methods) or a module (mpa, ddp, rdmap, verbs, tools);
# none means every target. Each target fuzzes for N seconds (default 20), J at a time (default 1), with
# the test JVM's settings (Netty leak detection PARANOID). Builds once with Maven offline; no network.
# Prints per target: executions, executions/s, coverage (libFuzzer's cov/ft), new corpus entries (in
# MODULE/.cifuzz-corpus/, not committed) and crashes (Jazzer writes each crashing input into the target's
# seed directory under src/test/resources, where the normal build replays it), then "N passed, N failed".
# A target fails when it found a crash or a leak, or did not run. Logs: target/fuzz/TARGET.log.
# Exit status: 0 only if every target passed.
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
seconds=20
jobs=1
list=false
selectors=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --list) list=true; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; sed -n '2,13p' "$0" >&2; exit 2 ;;
    *) selectors+=("$1"); shift ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] \
  || { echo "fuzz.sh: --seconds needs a positive number" >&2; exit 2; }
[[ "$jobs" =~ ^[0-9]+$ ]] && [ "$jobs" -gt 0 ] || { echo "fuzz.sh: --jobs needs a positive number" >&2; exit 2; }
cd "$root"

# Every @FuzzTest method as "module class method".
all=()
while IFS= read -r file; do
  module=${file%%/src/test/java/*}
  class=${file#*/src/test/java/}; class=${class%.java}; class=${class//\//.}
  while IFS= read -r method; do
    all+=("$module $class $method")
  done < <(awk '/@FuzzTest/ {want=1; next} want && /void [A-Za-z0-9_]+\(/ {
             match($0, /void [A-Za-z0-9_]+\(/); print substr($0, RSTART + 5, RLENGTH - 6); want=0 }' "$file")
done < <(grep -rl --include='*.java' '@FuzzTest' -- */src/test/java | sort)

targets=()
for t in "${all[@]}"; do
  read -r module class method <<<"$t"
  simple=${class##*.}
  if [ ${#selectors[@]} -eq 0 ]; then targets+=("$t"); continue; fi
  for s in "${selectors[@]}"; do
    if [ "$s" = "$module" ] || [ "$s" = "$simple" ] || [ "$s" = "$class" ] \
        || [ "$s" = "$simple#$method" ] || [ "$s" = "$class#$method" ]; then
      targets+=("$t"); break
    fi
  done
done
if $list; then
  for t in "${all[@]}"; do read -r module class method <<<"$t"; echo "${class##*.}#$method ($module)"; done
  exit 0
fi
[ ${#targets[@]} -gt 0 ] || { echo "fuzz.sh: no target matches ${selectors[*]:-}; see --list" >&2; exit 2; }

modules=$(for t in "${targets[@]}"; do echo "${t%% *}"; done | sort -u | paste -sd, -)
echo "fuzz.sh: building $modules (mvn -o test-compile)" >&2
mkdir -p target # the root module writes nothing there itself: a fresh clone has none
mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/fuzz.cp -Dmdep.includeScope=test \
    -pl "$modules" -am >target/fuzz-build.log 2>&1 \
  || { cat target/fuzz-build.log >&2; echo "fuzz.sh: build failed" >&2; exit 2; }

# The surefire argLine of the parent POM: every test JVM runs Netty's leak detection at PARANOID.
argline=$(sed -n 's:.*<iwarp.test.argLine>\(.*\)</iwarp.test.argLine>.*:\1:p' pom.xml)
mkdir -p target/fuzz

corpus_count() { find "$1" -type f 2>/dev/null | wc -l; }

run_one() { # module class method
  local module=$1 class=$2 method=$3 name log cp corpus before rc
  name="${class##*.}#$method"; log="$root/target/fuzz/$name.log"
  cp="$root/$module/target/test-classes:$root/$module/target/classes:$(cat "$root/$module/target/fuzz.cp")"
  corpus="$root/$module/.cifuzz-corpus/$class/$method"
  before=$(corpus_count "$corpus")
  # Bounded: the fuzzing time plus the JVM's start, the seed replay and the final leak check.
  (cd "$root/$module" && JAZZER_FUZZ=1 timeout -k 10 $((seconds + 180)) \
      java $argline -cp "$cp" "$root/scripts/FuzzRunner.java" "$class" "$method" "$seconds") >"$log" 2>&1
  rc=$?
  echo "$rc $(( $(corpus_count "$corpus") - before ))" >"$log.result"
}

running=0
for t in "${targets[@]}"; do
  read -r module class method <<<"$t"
  echo "fuzz.sh: ${class##*.}#$method for ${seconds}s" >&2
  run_one "$module" "$class" "$method" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

passed=0; failed=0; total=0
printf '%-44s %12s %8s %6s %7s %6s %7s  %s\n' TARGET EXECUTIONS EXEC/S COV FT NEW CRASHES RESULT
for t in "${targets[@]}"; do
  read -r module class method <<<"$t"
  name="${class##*.}#$method"; log="target/fuzz/$name.log"
  read -r rc new <"$log.result"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  if [ -z "$execs" ]; then execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last"); fi
  crashes=$(grep -c 'Test unit written to' "$log")
  if [ "$rc" -eq 0 ]; then
    result=passed; passed=$((passed + 1))
  else
    result="FAILED (exit $rc)"; failed=$((failed + 1))
  fi
  [ "$rc" -eq 124 ] && result="FAILED (timed out)"
  total=$((total + ${execs:-0}))
  printf '%-44s %12s %8s %6s %7s %6s %7s  %s\n' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
      "$new" "$crashes" "$result"
  if [ "$rc" -ne 0 ]; then
    grep -E 'Test unit written to|== Java Exception|ByteBuf\(s\) not released|LEAK:|FuzzRunner: FAILED' "$log" \
      | head -5 | sed 's/^/    /'
    echo "    log: $log"
  fi
done
echo "total: $total executions"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

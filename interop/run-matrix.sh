#!/bin/bash
# siw interop matrix: builds (if needed) and boots the siw lab, runs every cell of cells.table as a
# test, prints "N passed, N failed, N not run" and a markdown table, writes the results, and
# always tears the lab down. CI calls it after the unit tests. Needs root (tap + netns).
#
# usage: interop/run-matrix.sh [--out DIR] [--only REGEX] [--skip REGEX] [--list] [--no-build] [--keep-lab]
#   --out DIR     results directory (default $SIWLAB_CACHE/matrix/<timestamp>); per cell: .pcap, .txt, .json
#   --only REGEX  run only cells whose name matches (grep -E); the others are reported "not run"
#   --skip REGEX  do not run cells whose name matches
#   --list        list the cells and exit
#   --no-build    do not run build.sh (fail if the cache is missing)
#   --keep-lab    leave the guest running afterwards (default: stop.sh, even on failure)
# Environment: SIWLAB_MATRIX_TIMEOUT (seconds, default 1200 = the CI budget of 20 minutes, including
# build and boot), SIWLAB_BOOT_RETRIES (boot attempts, default 3), SIWLAB_RETRIES (how often a failed
# cell runs again, default 1, 0 for a strict run; a cell that passes on a later attempt passes, marked
# "retried" in the table and the summary, with the failed attempt's evidence at the end of the output),
# SIWLAB_FAIL_LINES (evidence lines shown per failed attempt, default 60).
# Exit status: 0 if no cell failed (cells "not run" do not fail the run), 1 otherwise, 2 if the
# lab could not be built or booted, 124 if the overall time budget ran out.
set -uo pipefail
# no job control, even when a caller exported SHELLOPTS with it: run_step's background job must stay in our process
# group, else setsid forks, returns at once, and every step and cell "succeeds" without having run
set +m
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
source "$HERE/lib.sh"
# IWARP_JAR from the environment (cells.sh gives it a default): the iwarp cells use that jar, not a fresh build
JAR_GIVEN=${IWARP_JAR:-}

OUT="" ONLY="" SKIP="" LIST=0 BUILD=1 KEEP=0 CELL_MODE=""
while [ $# -gt 0 ]; do
  case $1 in
    --out) OUT=$2; shift ;;
    --only) ONLY=$2; shift ;;
    --skip) SKIP=$2; shift ;;
    --list) LIST=1 ;;
    --no-build) BUILD=0 ;;
    --keep-lab) KEEP=1 ;;
    --cell) CELL_MODE=$2; shift ;;     # internal: run one cell (inside the lab namespace)
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
  shift
done

# ------------------------------------------------------------------------------ the cells
# cells.table is the list of cells (name, group, timeout, what runs where, what must hold); cells.sh reads it
# and runs one cell with its helpers
# shellcheck source=cells.sh
source "$HERE/cells.sh"
if [ -n "$CELL_MODE" ]; then read_cells "$HERE/cells.table" --trusted; else read_cells "$HERE/cells.table"; fi

if [ $LIST = 1 ]; then
  for i in "${!CELLS[@]}"; do
    printf '%-40s %-14s %4ss  %s\n' "${CELLS[$i]}" "${CGROUP[$i]}" "${CTIMEOUT[$i]}" "${CDESC[$i]}"
  done
  exit 0
fi

# ------------------------------------------------------------------------------ one cell (child process)
if [ -n "$CELL_MODE" ]; then
  CELL=$CELL_MODE
  CDIR=$OUT/cells
  [ -f "$SIWLAB_STATE/env" ] && source "$SIWLAB_STATE/env"
  reset_params
  run_cell "$CELL"
  rc=$?
  cap_stop
  reset_params
  exit $rc
fi

# ------------------------------------------------------------------------------ main
[ "$SIWLAB_NET" = remote ] || need_root "run-matrix.sh (tap networking in a network namespace)"
TIMEOUT=${SIWLAB_MATRIX_TIMEOUT:-1200}
RETRIES=${SIWLAB_RETRIES:-1}
# one lab user at a time on a shared machine: SIWLAB_LOCK=FILE holds flock(1) on FILE from here on (the guest,
# which inherits it, holds it until it is stopped); the time budget starts once it is held
if [ -n "${SIWLAB_LOCK:-}" ] && [ "$SIWLAB_NET" != remote ]; then
  exec 9>>"$SIWLAB_LOCK"
  echo "[matrix $(date +%T)] waiting for the lab lock $SIWLAB_LOCK" >&2
  flock 9
fi
START=$(date +%s)
DEADLINE=$((START + TIMEOUT))
[ -n "$OUT" ] || OUT=$SIWLAB_CACHE/matrix/$(date +%Y%m%d-%H%M%S)
mkdir -p "$OUT/cells" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/run.log
: > "$LOG"
log() { echo "[matrix $(ts)] $*" | tee -a "$LOG" >&2; }

declare -A RESULT=() SECS=() DETAIL=() EARLIER=()
CHILD=""
BUILD_S="-" BOOT_S="-" JAR_S="-" LAB_OK=0 FINISHED=0

# whether the guest still runs a command over ssh within 30 s (a dead guest refuses or times out)
guest_answers() {
  timeout -k 5 30 bash "$HERE/guest.sh" true > /dev/null 2>&1
}

# run a step in its own session so that a timeout can end all of it
run_step() {   # run_step CMD... (stdout+stderr to $LOG)
  setsid "$@" >> "$LOG" 2>&1 &
  CHILD=$!
  wait "$CHILD"
  local rc=$?
  CHILD=""
  return $rc
}

write_results() {
  local pass=0 fail=0 notrun=0 filtered=0 i c r md="$OUT/results.md" tsv="$OUT/results.tsv"
  for c in "${CELLS[@]}"; do
    case ${RESULT[$c]:-not run} in
      pass) pass=$((pass+1)) ;; fail) fail=$((fail+1)) ;;
      filtered) filtered=$((filtered+1)) ;; *) notrun=$((notrun+1)) ;;
    esac
  done
  local ftxt="" retried=() rtxt=""
  [ $filtered -gt 0 ] && ftxt=" ($filtered cells filtered out by --only/--skip)"
  for c in "${CELLS[@]}"; do [ -n "${EARLIER[$c]:-}" ] && [ "${RESULT[$c]:-}" = pass ] && retried+=("$c"); done
  [ ${#retried[@]} -gt 0 ] && rtxt=" (${#retried[@]} only on a second attempt: ${retried[*]})"
  {
    echo "# siw interop matrix"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) - guest kernel ${KVER:-?}, siw.ko sha256 ${SIWSRC:-?}," \
      "accel ${SIWLAB_ACCEL_USED:-?}"
    echo "lab build ${BUILD_S}s, iwarp jar ${JAR_S}s, boot ${BOOT_S}s, total $(( $(date +%s) - START ))s" \
      "(budget ${TIMEOUT}s)"
    echo
    echo "**$pass passed, $fail failed, $notrun not run**$ftxt$rtxt"
    echo
    echo "| # | cell | group | result | time | detail |"
    echo "|---|---|---|---|---|---|"
    for i in "${!CELLS[@]}"; do
      c=${CELLS[$i]}
      r=${RESULT[$c]:-not run}
      [ "$r" = filtered ] && continue
      shown=$r
      [ "$r" = fail ] && shown="**FAIL**"
      [ -n "${EARLIER[$c]:-}" ] && [ "$r" = pass ] && shown="$r (retried)"
      printf '| %d | %s | %s | %s | %s | %s |\n' $((i+1)) "$c" "${CGROUP[$i]}" "$shown" "${SECS[$c]:--}" \
        "$(echo "${DETAIL[$c]:-${CDESC[$i]}}" | sed 's/|/\\|/g')"
    done
  } > "$md"
  : > "$tsv"
  for i in "${!CELLS[@]}"; do
    c=${CELLS[$i]}
    printf '%s\t%s\t%s\t%s\t%s\n' "$c" "${CGROUP[$i]}" "${RESULT[$c]:-not run}" "${SECS[$c]:--}" \
      "${DETAIL[$c]:-}" >> "$tsv"
  done
  SUMMARY="$pass passed, $fail failed, $notrun not run$ftxt$rtxt"
  FAILED=$fail
}

teardown() {
  [ $FINISHED = 1 ] && return
  FINISHED=1
  [ -n "$CHILD" ] && kill -TERM -- "-$CHILD" 2>/dev/null
  [ -n "${WATCHDOG:-}" ] && kill "$WATCHDOG" 2>/dev/null
  if [ "$SIWLAB_NET" = remote ]; then
    :   # a real siw host: nothing of ours to stop
  elif [ $KEEP = 0 ]; then
    bash "$HERE/stop.sh" >> "$LOG" 2>&1 || log "stop.sh reported an error"
  else
    log "--keep-lab: the guest stays up (stop it with interop/stop.sh)"
  fi
  write_results
  # what iwarp conformance measured against siw, as a page (docs/conformance-siw.md is this page of a full run)
  "$SIWLAB_PYTHON" "$HERE/conformance-report.py" "$OUT" > "$OUT/conformance-siw.md" 2>> "$LOG" \
    || log "conformance-report.py failed"
  cat "$OUT/results.md"
  failed_evidence
  echo
  echo "$SUMMARY"
  echo "results: $OUT/results.md, $OUT/conformance-siw.md (per-cell captures and decodes in $OUT/cells/)"
}
# each failed cell again, after the table, with the start of its evidence (result, failed checks, the
# programs' output; the capture decode is left in the file): a CI log that keeps only its last lines still
# says which cell failed and why
evidence_head() { sed '/^## capture /q' "$1" | head -n "${SIWLAB_FAIL_LINES:-60}" | cut -c1-400; }
failed_evidence() {
  local c a
  for c in "${CELLS[@]}"; do
    for ((a = 1; a <= RETRIES; a++)); do
      [ -f "$OUT/cells/$c.attempt$a.txt" ] || break
      echo
      echo "---- FAILED ON ATTEMPT $a (then run again; the table has its final result): $c"
      evidence_head "$OUT/cells/$c.attempt$a.txt"
      echo "---- end of $c attempt $a (whole evidence: $OUT/cells/$c.attempt$a.txt)"
    done
    [ "${RESULT[$c]:-}" = fail ] || continue
    echo
    echo "---- FAILED: $c (${SECS[$c]:--}): ${DETAIL[$c]:-}"
    [ -f "$OUT/cells/$c.txt" ] && evidence_head "$OUT/cells/$c.txt"
    echo "---- end of $c (whole evidence: $OUT/cells/$c.txt)"
  done
}
on_timeout() {
  log "TIME BUDGET of ${TIMEOUT}s EXHAUSTED: stopping; unfinished cells are 'not run'"
  teardown
  exit 124
}
trap on_timeout USR1
trap 'log "interrupted"; teardown; exit 130' INT TERM
trap teardown EXIT
# hard overall timeout: the watchdog signals us; the handler kills the running step and tears down
( trap 'kill "$sp" 2>/dev/null; exit 0' TERM; sleep "$TIMEOUT" & sp=$!; wait "$sp" && kill -USR1 $$ 2>/dev/null ) &
WATCHDOG=$!

log "siw interop matrix: $(( ${#CELLS[@]} )) cells, budget ${TIMEOUT}s, results in $OUT"

if [ "$SIWLAB_NET" = remote ]; then
  BUILD=0
  log "SIWLAB_REMOTE=$SIWLAB_REMOTE: running the cells against a real siw host ($SIWLAB_GUEST_IP), no build/boot"
fi
# ---- build (outside the namespace: apt needs the network)
if [ $BUILD = 1 ]; then
  t0=$(date +%s)
  log "build.sh (idempotent; ~2 min on a fresh machine)"
  if ! run_step bash "$HERE/build.sh"; then
    log "build.sh FAILED (see $LOG)"; tail -20 "$LOG" >&2; exit 2
  fi
  BUILD_S=$(( $(date +%s) - t0 ))
fi
# ---- the iwarp tools jar (the iwarp cells run tools/target/iwarp.jar): ./iwarp rebuilds it when a
# source is newer (after `mvn verify` in CI it is fresh and this takes a second)
t0=$(date +%s)
if [ -n "$JAR_GIVEN" ]; then
  [ -f "$JAR_GIVEN" ] || log "WARNING: IWARP_JAR=$JAR_GIVEN does not exist: every iwarp cell will fail"
  log "the iwarp cells run IWARP_JAR=$JAR_GIVEN (not rebuilt)"
  JAR_S=0
elif run_step "$ROOT/iwarp" --version; then
  JAR_S=$(( $(date +%s) - t0 ))
else
  JAR_S="failed"
  log "WARNING: tools/target/iwarp.jar could not be built (see $LOG): every iwarp cell will fail"
fi
# a class-data archive of the jar, made by one `iwarp explain`: the two or three JVMs of every cell start from it, a
# fifth faster (cells.sh adds it to IW_JAVA_OPTS; without it they start as before)
unset SIWLAB_CDS_ARCHIVE
# shellcheck disable=SC2086
if [ "$JAR_S" != failed ] && java -XX:ArchiveClassesAtExit="$OUT/iwarp.jsa" $IW_JAVA_BASE_OPTS -jar "$IWARP_JAR" explain \
     --summary --pcap "$HERE/captures/fpdu-pad-s26.pcap" > /dev/null 2>> "$LOG" && [ -s "$OUT/iwarp.jsa" ]; then
  export SIWLAB_CDS_ARCHIVE=$OUT/iwarp.jsa
else
  log "no class-data archive of the jar (see $LOG): the cells' JVMs start without one"
fi
if [ "$SIWLAB_NET" = remote ]; then
  KVER=$(bash "$HERE/guest.sh" uname -r 2>/dev/null || echo '?')
  SIWSRC=$(bash "$HERE/guest.sh" cat /sys/module/siw/srcversion 2>/dev/null || echo '?')
  SIWLAB_ACCEL_USED="real host $SIWLAB_REMOTE"
else
  [ -f "$SIWLAB_CACHE/build.env" ] || { log "no lab build in $SIWLAB_CACHE (run build.sh)"; exit 2; }
  # shellcheck disable=SC1091
  source "$SIWLAB_CACHE/build.env"
  SIWSRC=${SIW_SHA256:-?}
  # ---- boot (start.sh retries the boot itself; a lab left running by someone else is reused)
  t0=$(date +%s)
  log "start.sh (boot attempts: ${SIWLAB_BOOT_RETRIES})"
  if ! run_step bash "$HERE/start.sh"; then
    log "the lab did not boot (see $LOG and $SIWLAB_STATE/console.log*)"; exit 2
  fi
  BOOT_S=$(( $(date +%s) - t0 ))
  # shellcheck disable=SC1091
  source "$SIWLAB_STATE/env"
  SIWLAB_ACCEL_USED=$SIWLAB_ACCEL
fi
LAB_OK=1
bash "$HERE/guest.sh" 'uname -r; rdma link show; cd /sys/module/siw/parameters && grep . *' > "$OUT/guest-info.txt" 2>&1

# ---- cells
NETNS_EXEC=()
[ "$SIWLAB_NET" = tap ] && NETNS_EXEC=(ip netns exec "$SIWLAB_NETNS")
for i in "${!CELLS[@]}"; do
  c=${CELLS[$i]}
  if [ -n "$ONLY" ] && ! grep -qE "$ONLY" <<< "$c"; then RESULT[$c]=filtered; continue; fi
  if [ -n "$SKIP" ] && grep -qE "$SKIP" <<< "$c"; then RESULT[$c]=filtered; continue; fi
  left=$(( DEADLINE - $(date +%s) - 20 ))
  if [ "$left" -lt 10 ]; then
    RESULT[$c]="not run"; DETAIL[$c]="time budget exhausted"; continue
  fi
  t=${CTIMEOUT[$i]}; [ "$t" -gt "$left" ] && t=$left
  attempt=1
  while :; do
    if [ -n "${RESTART_BY:-}" ] && [ "$SIWLAB_NET" != remote ]; then
      log "cell $RESTART_BY left the guest broken: rebooting it (stop.sh, start.sh) before $c"
      RESTART_BY=""
      run_step bash "$HERE/stop.sh"
      run_step bash "$HERE/start.sh" || { log "the lab did not come back: the remaining cells are not run"; break 2; }
      # shellcheck disable=SC1091
      source "$SIWLAB_STATE/env"
    fi
    [ "$attempt" = 1 ] && rm -f "$OUT/cells/$c".*
    t0=$(date +%s.%N)
    run_step timeout -k 5 "$t" "${NETNS_EXEC[@]}" bash "$0" --cell "$c" --out "$OUT"
    rc=$?
    SECS[$c]=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1fs", b-a}')
    case $rc in
      0) RESULT[$c]=pass ;;
      77) RESULT[$c]="not run" ;;
      124|137) RESULT[$c]=fail; echo "cell timed out after ${t}s" >> "$OUT/cells/$c.notes" ;;
      *) RESULT[$c]=fail ;;
    esac
    DETAIL[$c]=$(cat "$OUT/cells/$c.detail" 2>/dev/null || true)
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
      if [ "$t" -lt "${CTIMEOUT[$i]}" ]; then
        # stopped by the matrix's budget, not by its own timeout: unfinished, like the cells after it
        RESULT[$c]="not run"
        DETAIL[$c]="time budget exhausted while it ran (stopped after ${t}s of its ${CTIMEOUT[$i]}s)"
      else
        DETAIL[$c]="TIMEOUT after ${t}s; ${DETAIL[$c]}"
      fi
    fi
    # evidence: one text file per cell (what was checked on the capture, both sides' output, the capture as
    # iwarp explain decodes it)
    {
      echo "# cell $c (${CGROUP[$i]}): ${CDESC[$i]}"
      echo "# result: ${RESULT[$c]} (${SECS[$c]}); ${DETAIL[$c]}"
      [ -f "$OUT/cells/$c.notes" ] && { echo; echo "## notes"; cat "$OUT/cells/$c.notes"; }
      if [ -f "$OUT/cells/$c.explain.log" ]; then
        echo; echo "## the capture's summary (iwarp explain --summary)"; cat "$OUT/cells/$c.explain.log"
      fi
      [ -f "$OUT/cells/$c.iwarp.txt" ] && { echo; echo "## iwarp (host side)"; cat "$OUT/cells/$c.iwarp.txt"; }
      [ -f "$OUT/cells/$c.guest.txt" ] && { echo; echo "## guest"; cat "$OUT/cells/$c.guest.txt"; }
      if [ -f "$OUT/cells/$c.gtags" ]; then
        while IFS= read -r line; do
          tag=${line%%:*}
          echo; echo "## guest program ${line}"
          gsh evidence "$tag"
        done < "$OUT/cells/$c.gtags"
      fi
      # the whole decode for a failed cell (a JVM per cell costs seconds on 2 busy cores); a passed one has its
      # summary above, and `iwarp explain --pcap cells/<cell>.pcap` decodes it later
      if [ -s "$OUT/cells/$c.pcap" ] && [ "${RESULT[$c]}" != pass ]; then
        echo; echo "## capture $c.pcap (host side of the tap), as iwarp explain decodes it"
        java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "${JAR_GIVEN:-$ROOT/tools/target/iwarp.jar}" explain \
          --pcap "$OUT/cells/$c.pcap" --terminate-layout siw
      fi
    } > "$OUT/cells/$c.txt" 2>&1
    rm -f "$OUT/cells/$c".{explain.log,gtags,notes,detail,ready,tcpdump.log,guest.txt,iwarp.txt} "$OUT/cells/$c".iw-*
    log "$(printf '%-40s %-8s %7s  %s' "$c" "${RESULT[$c]}" "${SECS[$c]}" "${DETAIL[$c]}")"
    # a cell that knows it broke the guest (e.g. siw's kernel BUG, FINDINGS M16) asks for a fresh one, which
    # the next cell that runs gets
    if [ -f "$OUT/cells/$c.restart-lab" ]; then
      rm -f "$OUT/cells/$c.restart-lab"
      RESTART_BY=$c
    fi
    # a guest that died under a cell (seen once under TCG: its ssh refused, the host's connects "no route to host")
    # would fail every cell after it: after a failed cell the guest must still answer, else it is booted again
    # before the next attempt or cell
    if [ "${RESULT[$c]}" = fail ] && [ -z "${RESTART_BY:-}" ] && [ "$SIWLAB_NET" != remote ] && ! guest_answers; then
      log "the guest does not answer after $c failed: it is booted again before the next attempt or cell"
      RESTART_BY="$c (the guest stopped answering)"
    fi
    # a failed cell runs once more (SIWLAB_RETRIES, default 1) when time allows: the guest is a real kernel
    # under emulation, with siw's own races (FINDINGS M15, F5). The first attempt's evidence stays
    # ($c.attempt1.*), the table marks the cell, and the end of the output shows why the first attempt failed.
    if [ "${RESULT[$c]}" = fail ] && [ "$attempt" -le "$RETRIES" ] \
       && [ $(( DEADLINE - $(date +%s) - 20 )) -ge "$t" ]; then
      for f in "$OUT/cells/$c".*; do
        case $f in *.attempt[0-9]*) continue ;; esac
        mv "$f" "$OUT/cells/$c.attempt$attempt.${f#"$OUT/cells/$c".}"
      done
      EARLIER[$c]="${EARLIER[$c]:-}attempt $attempt failed (${SECS[$c]}): ${DETAIL[$c]}; "
      log "$c failed on attempt $attempt: running it again" \
        "(evidence of attempt $attempt in $OUT/cells/$c.attempt$attempt.txt)"
      attempt=$((attempt + 1))
      continue
    fi
    break
  done
  if [ -n "${EARLIER[$c]:-}" ]; then
    DETAIL[$c]="${EARLIER[$c]}attempt $attempt: ${DETAIL[$c]}"
    # only a pass on a later attempt overrides a failed one: a retry that is "not run" (e.g. the guest broke
    # and a cell's precondition could not be checked) leaves the cell failed
    [ "${RESULT[$c]}" = pass ] || RESULT[$c]=fail
  fi
done

teardown
trap - EXIT
[ "$FAILED" = 0 ]

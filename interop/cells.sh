# shellcheck shell=bash
# The runner of the siw interop matrix's cells and its helpers, sourced by run-matrix.sh.
#
# The cells are data: interop/cells.table says, cell by cell, its name, group and timeout, what it checks,
# what runs where (a helper of this file with its arguments) and what must hold afterwards. read_cells reads
# the table; run-matrix.sh runs each cell in its own process, inside the lab's network namespace, under the
# cell's timeout, and that process calls run_cell NAME. A cell returns 0 (pass), 1 (fail) or 77 (not run: a
# prerequisite such as the jar, siwlab-cm or a siw module parameter is missing) and leaves a one-line result
# (detail, verdict). run-matrix.sh collects the capture ($CDIR/$CELL.pcap), its summary as `iwarp explain
# --summary` decodes it with the expectations checked on it ($CELL.explain.log), the tools' output on both
# sides and the decode of the capture into $CDIR/$CELL.txt. No cell decodes octets itself: every capture is
# decoded by iwarp explain, every scripted exchange with siw is a check of `iwarp conformance`.
#
# Expected outcomes encode what siw 6.1 (Debian 6.1.x, siw.ko built by build.sh) actually does, as FINDINGS.md
# establishes: a failing siw-only cell means siw's behaviour (or the lab) changed.

NOT_RUN=77
GIP=${SIWLAB_GUEST_IP:-10.77.0.2}
HIP=${SIWLAB_HOST_IP:-10.77.0.1}
# iwarp4j's tools, run directly (./iwarp would start a Maven build when the jar is stale; run-matrix.sh makes
# sure it is fresh before the cells)
IWARP_JAR=${IWARP_JAR:-$ROOT/tools/target/iwarp.jar}
# short-lived JVMs: C1 only and the serial collector start faster on 2 cores; perf cells override this
IW_JAVA_BASE_OPTS=${IWARP_MATRIX_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1}
IW_JAVA_OPTS=$IW_JAVA_BASE_OPTS
# run-matrix.sh's class-data archive of the jar; the JVM's warnings (an archive it cannot use) go to stderr, never
# into the standard output a cell reads (explain's JSON)
if [ -n "${SIWLAB_CDS_ARCHIVE:-}" ] && [ -z "${IWARP_MATRIX_JAVA_OPTS:-}" ]; then
  IW_JAVA_OPTS="$IW_JAVA_OPTS -XX:SharedArchiveFile=$SIWLAB_CDS_ARCHIVE -Xlog:disable -Xlog:all=warning:stderr"
fi
# the interpreter itself, not a version manager's shim in front of it (pyenv's costs 0.4 s a call, and a cell calls
# python a dozen times for its checks); found once per matrix (run-matrix.sh exports it to the cells)
if [ -z "${SIWLAB_PYTHON:-}" ]; then
  SIWLAB_PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
  [ -x "$SIWLAB_PYTHON" ] || SIWLAB_PYTHON=python3
  export SIWLAB_PYTHON
fi
# words the table uses
NO_TERMS="siw_term=none ours_term=none crc_bad=0"
RPING_C3="rping -c -a $HIP -C 3 -S 64 -V"
PT_ITERS=${PT_ITERS:-100}
PT_DURATION=${PT_DURATION:-3}   # -D and -f of the perftest-*-dur-* cells: 1 s measured between two margins
PT_MARGIN=${PT_MARGIN:-1}
FAILS=()

# =========================================================================================== the table
CELLS=() CGROUP=() CTIMEOUT=() CDESC=()
declare -A CF=()     # CF[NAME/FIELD]: the cell's fields (what, params, needs, run, expect, known, says)
CELL_FIELDS=" what params needs run expect known says "

# read_cells FILE [--trusted] : the table into CELLS, CGROUP, CTIMEOUT, CDESC (in its order) and CF; dies on a
# malformed row. --trusted (a cell's own process, after run-matrix.sh read the same file): the checks that need a
# subshell per cell are left out (they cost a TCG-loaded host most of a second per cell)
read_cells() {
  local file=$1 trusted=${2:-} line n=0 name="" field="" key value group secs rest c
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    if [[ $line == "   "* ]]; then                       # a continuation of the field above
      [ -n "$field" ] || die "$file:$n: a continuation line without a field above it"
      [[ $line =~ ^[[:space:]]*(.*[^[:space:]]) ]]   # (regexes, not read <<<: no temporary file per line)
      CF[$name/$field]+=" ${BASH_REMATCH[1]}"
    elif [[ $line == "  "[a-z]* ]]; then                 # a field of the cell above
      [[ $line =~ ^[[:space:]]*([^[:space:]]+)[[:space:]]*(.*[^[:space:]])? ]]
      key=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
      [[ $CELL_FIELDS == *" $key "* ]] || die "$file:$n: unknown field '$key' (fields:$CELL_FIELDS)"
      [ -n "$name" ] || die "$file:$n: a field before the first cell"
      [ -z "${CF[$name/$key]+set}" ] || die "$file:$n: cell $name has two '$key' fields"
      field=$key
      CF[$name/$key]=$value
    elif [[ $line == [a-z]* ]]; then                     # a cell: NAME GROUP SECONDS
      [[ $line =~ ^([^[:space:]]+)[[:space:]]*([^[:space:]]*)[[:space:]]*([^[:space:]]*)[[:space:]]*(.*) ]]
      name=${BASH_REMATCH[1]} group=${BASH_REMATCH[2]} secs=${BASH_REMATCH[3]} rest=${BASH_REMATCH[4]}
      [[ $secs =~ ^[0-9]+$ && -z $rest ]] || die "$file:$n: a cell's row is NAME GROUP SECONDS"
      [ -z "${CF[$name/group]+set}" ] || die "$file:$n: cell $name is in the table twice"
      CF[$name/group]=$group
      CELLS+=("$name") CGROUP+=("$group") CTIMEOUT+=("$secs")
      field=""
    else
      die "$file:$n: rows start in column 1, fields are indented by two spaces, continuations by more"
    fi
  done < "$file"
  for c in "${CELLS[@]}"; do
    [[ -n ${CF[$c/what]:-} && -n ${CF[$c/run]:-} ]] || die "$file: cell $c needs a 'what' and a 'run'"
    # shellcheck disable=SC2016
    value=${CF[$c/what]//'$GIP'/$GIP}
    # shellcheck disable=SC2016
    CDESC+=("${value//'$HIP'/$HIP}")
    [ "$trusted" = --trusted ] && continue
    declare -F "$(run_helper "$c")" > /dev/null || die "$file: cell $c runs '$(run_helper "$c")', not a helper"
  done
}
run_helper() {   # run_helper NAME : the helper the cell's run calls (after its VAR=VALUE settings)
  local w
  eval "set -- ${CF[$1/run]}"
  for w in "$@"; do [[ $w =~ ^[A-Z_]+= ]] || { echo "$w"; return; }; done
}

# run_cell NAME : one cell (the process run-matrix.sh starts for it); its exit status is the cell's result
run_cell() {
  local name=$1 rc w says
  CELL=$name
  if [ "${CF[$name/group]}" = iwarp ]; then need_jar || return 1; fi
  for w in ${CF[$name/needs]:-}; do "need_${w//-/_}" || return $?; done
  # shellcheck disable=SC2086
  siwparam ${CF[$name/params]:-} || return $?
  KNOWN=${CF[$name/known]:-}
  eval "${CF[$name/run]}"
  rc=$?
  [ $rc = $NOT_RUN ] && return $rc
  [ -n "${CF[$name/expect]:-}${CF[$name/says]:-}" ] || return $rc
  eval "expect ${CF[$name/expect]:-}"
  eval "says=\"${CF[$name/says]:-}\""
  verdict "$says"
}

# =========================================================================================== results and checks
detail() { echo "$*" > "$CDIR/$CELL.detail"; }
note() { echo "$*" >> "$CDIR/$CELL.notes"; }
# chk WHAT CMD... : run a check; a failed one is recorded and fails the cell (verdict)
chk() { local what=$1; shift; "$@" || { FAILS+=("$what"); note "CHECK FAILED: $what"; }; }
is() { [ "$1" = "$2" ]; }
isnt() { [ "$1" != "$2" ]; }
is_one_of() { local v=$1 w; shift; for w in "$@"; do [ "$v" = "$w" ] && return 0; done; return 1; }
verdict() {
  if [ ${#FAILS[@]} = 0 ]; then detail "$*"; return 0; fi
  detail "FAILED: $(IFS=';'; echo "${FAILS[*]}") -- $*"
  return 1
}
# expect CHECK... : the checks of a cell's expect field, after a run that set OUR, SIW, OURTAG and SIWTAG:
#   our=V our!=V siw=V siw!=V   our / siw's exit status is (not) V ("none": it had to be stopped)
#   ours~REGEX siw~REGEX        our tool / siw's program printed a line that matches (grep -E)
#   KEY=VALUE[|VALUE...]        the capture, as psum checks it (interop/expect.py: keys in its help)
#   KEY^=PREFIX                 a value of the capture's summary (jget) starts with PREFIX
expect() {
  local e caps=() prefixes=()
  for e in "$@"; do
    case $e in
      our=*) chk "iwarp exit ${e#*=} (got $OUR)" is "$OUR" "${e#*=}" ;;
      our!=*) chk "iwarp exit not ${e#*=} (got $OUR)" isnt "$OUR" "${e#*=}" ;;
      siw=*) chk "siw exit ${e#*=} (got $SIW)" is "$SIW" "${e#*=}" ;;
      siw!=*) chk "siw exit not ${e#*=} (got $SIW)" isnt "$SIW" "${e#*=}" ;;
      ours~*) chk "iwarp printed /${e#*~}/" iw_has "$OURTAG" "${e#*~}" ;;
      siw~*) chk "siw's ${SIWTAG} printed /${e#*~}/" g_has "$SIWTAG" "${e#*~}" ;;
      *^=*) prefixes+=("$e") ;;
      *=*) caps+=("$e") ;;
      *) chk "an expectation the runner knows: $e" false ;;
    esac
  done
  [ ${#caps[@]} = 0 ] || chk "capture: ${caps[*]}" psum "${caps[@]}"
  for e in "${prefixes[@]}"; do
    chk "capture: ${e%%^=*} starts with ${e#*^=} (got $(jget "${e%%^=*}"))" starts_with "$(jget "${e%%^=*}")" "${e#*^=}"
  done
}
starts_with() { [[ $1 == "$2"* ]]; }
chk_exits() {   # chk_exits WHAT : both exit statuses 0
  chk "$1: iwarp exit 0 (got $OUR)" is "$OUR" 0
  chk "$1: siw exit 0 (got $SIW)" is "$SIW" 0
}
# psum KEY=VALUE... : expectations on connection ${PCONN:-0} of the cell's capture, as `iwarp explain --pcap
# --summary` decodes it (interop/expect.py flattens one connection: our side is $HIP, the other siw's; keys in its
# help); the flattened summary goes to $CELL.json for jget
psum() {
  local sum="$CDIR/$CELL.summary" siw=()
  if [ ! -s "$sum.rfc.json" ] || [ "$CDIR/$CELL.pcap" -nt "$sum.rfc.json" ]; then
    rm -f "$sum.siw.json"
    iwarp_java explain --pcap "$CDIR/$CELL.pcap" --summary > "$sum.rfc.json" 2>> "$CDIR/$CELL.explain.log"
    # a Terminate whose control word reads as a registered cause in both layouts is read in the RFC layout on
    # our side and in siw's mirrored one on siw's (FINDINGS F1): only then is the capture decoded a second time
    if grep -q '"ambiguous":true' "$sum.rfc.json"; then
      iwarp_java explain --pcap "$CDIR/$CELL.pcap" --summary --terminate-layout siw \
        > "$sum.siw.json" 2>> "$CDIR/$CELL.explain.log"
    fi
  fi
  [ -s "$sum.siw.json" ] && siw=(--siw-summary "$sum.siw.json")
  echo "# capture, connection ${PCONN:-0}: $*" >> "$CDIR/$CELL.explain.log"
  "$SIWLAB_PYTHON" "$HERE/expect.py" "$sum.rfc.json" "${siw[@]}" --ours "$HIP" --conn "${PCONN:-0}" \
    --json "$CDIR/$CELL.json" "$@" >> "$CDIR/$CELL.explain.log" 2>&1
}
# jget KEY : a value of the cell's flattened capture summary ($CELL.json, written by psum; "none" if absent)
jget() {
  "$SIWLAB_PYTHON" - "$CDIR/$CELL.json" "$1" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("none"); sys.exit()
v = d.get(sys.argv[2]) if isinstance(d, dict) else None
print("none" if v is None else v)
EOF
}
mpa_line() { echo "Request $(jget request.hex | cut -c33-); Reply $(jget reply.hex | cut -c33-)"; }

# =========================================================================================== prerequisites
need_jar() {
  [ -f "$IWARP_JAR" ] && return 0
  detail "FAILED: $IWARP_JAR missing (mvn -B -pl tools -am package)"; return 1
}
need_siwlab_cm() {   # the lab's librdmacm peer (guest/siwlab-cm.c); a real siw host needs it installed
  G "command -v siwlab-cm >/dev/null" && return 0
  detail "needs siwlab-cm on the siw host (gcc -O2 -o /usr/local/bin/siwlab-cm interop/guest/siwlab-cm.c" \
    "-lrdmacm -libverbs)"
  return $NOT_RUN
}
# siwparam NAME=VALUE... : set siw module parameters (the lab's patched siw.ko); NOT_RUN when siw has no such
# parameter (a stock siw.ko: real siw hosts)
siwparam() {
  local kv
  for kv in "$@"; do
    gsh param_writable "${kv%%=*}" ||
      { detail "needs the siw module parameter ${kv%%=*} (the lab's patched siw.ko)"; return $NOT_RUN; }
    gsh param_set "${kv%%=*}" "${kv#*=}" || return 1
    note "siw parameter ${kv%%=*}=${kv#*=}"
  done
}
reset_params() { gsh params_reset 2> /dev/null || true; }

# =========================================================================================== the guest's side
G() { bash "$HERE/guest.sh" "$@"; }
# gsh [-p] FUNCTION ARGS... : a function of guest/lab.sh (-p: or of guest/pairs.sh), run by the guest's shell. The
# file goes in as the command, without comments and indentation (sh -s < file would cost the TCG guest one more
# process per call)
guest_lib() { sed -e '/^[[:space:]]*#/d' -e 's/^[[:space:]]*//' -e '/^$/d' "$@"; }
GUEST_LIB=$(guest_lib "$HERE/guest/lab.sh")
GUEST_LIB_PAIRS=$(guest_lib "$HERE/guest/lab.sh" "$HERE/guest/pairs.sh")
gsh() {
  local lib=$GUEST_LIB
  [ "$1" = -p ] && { lib=$GUEST_LIB_PAIRS; shift; }
  G "$lib
$(gquote "$@")"
}
gquote() { local a q="'"; for a in "$@"; do printf "'%s' " "${a//$q/$q\\$q$q}"; done; }
# gstart TAG SECS CMD : CMD in the guest in the background (own session), bounded by SECS; recorded for the
# evidence. Output in guest:/tmp/TAG.log, exit status in /tmp/TAG.rc, session leader pid in /tmp/TAG.pid.
gstart() { echo "$1: $3" >> "$CDIR/$CELL.gtags"; gsh start "$@"; }
gwait() { gsh status "$1" "$2"; }           # gwait TAG SECS : TAG's exit status once it ended ("none": not yet)
gstop() { gsh stop "$1"; }                  # gstop TAG : end TAG's whole session
glog() { gsh log "$1"; }
g_has() { gsh has "$1" "$2"; }              # g_has TAG REGEX : guest program TAG printed it
gwait_listen() { gsh listening "$1"; }      # gwait_listen PORT : something listens on PORT (<= 10 s)
dmesg_mark() { DMARK=$(G "dmesg | wc -l"); }
dmesg_new() { G "dmesg | tail -n +$(( ${DMARK:-0} + 1 ))"; }
# siw's kernel log since the mark: siw reports every Terminate it receives ("siw: got TERMINATE. layer L, type
# E, code C"), read with its own bit-mirrored bitfields (FINDINGS F1)
siw_got_term() { dmesg_new | grep -m1 'got TERMINATE' | sed 's/^\[[^]]*\] //'; }
# siw_line [-i] REGEX WIDTH : the first line of siw's program (SIWTAG) that matches, cut to WIDTH
siw_line() {
  local i=""
  [ "$1" = -i ] && { i=-i; shift; }
  glog "$SIWTAG" | grep -m1 $i -E -- "$1" | cut -c1-"$2"
}

# =========================================================================================== captures
TDPID=""
cap_start() {   # cap_start FILTER : tcpdump on the tap (or SIWLAB_CAPTURE_IF) into $CDIR/$CELL.pcap
  local ifc=${SIWLAB_CAPTURE_IF:-} i
  [ "${SIWLAB_NET:-tap}" = tap ] && ifc=${SIWLAB_CAPTURE_IF:-$SIWLAB_TAP}
  [ -n "$ifc" ] || return 0
  # high priority: on 2 cores the TCG guest and a JVM starve it, and packets it has not read when it is
  # stopped are lost ("received by filter" but not "captured")
  nice -n -15 tcpdump -Z root -i "$ifc" -s 0 -B 8192 -U -w "$CDIR/$CELL.pcap" "$1" > "$CDIR/$CELL.tcpdump.log" 2>&1 &
  TDPID=$!
  for i in $(seq 50); do grep -q 'listening on' "$CDIR/$CELL.tcpdump.log" 2>/dev/null && break; sleep 0.1; done
}
cap_stop() {
  [ -n "$TDPID" ] || return 0
  # Let tcpdump drain what the kernel queued for it before stopping it (a stopped tcpdump drops what it has not
  # read yet): SIGUSR1 makes it print "N packets captured, M packets received by filter"; wait (<= 10 s)
  # until N = M.
  local i line cap rec
  sleep 0.2
  for i in $(seq 100); do
    kill -USR1 "$TDPID" 2>/dev/null || break
    sleep 0.1
    line=$(grep 'packets received by filter' "$CDIR/$CELL.tcpdump.log" 2>/dev/null | tail -1)
    cap=$(echo "$line" | sed -nE 's/.* ([0-9]+) packets? captured.*/\1/p')
    rec=$(echo "$line" | sed -nE 's/.* ([0-9]+) packets? received by filter.*/\1/p')
    [ -n "$cap" ] && [ "$cap" = "$rec" ] && break
  done
  kill "$TDPID" 2>/dev/null
  wait "$TDPID" 2>/dev/null
  TDPID=""
  line=$(tail -3 "$CDIR/$CELL.tcpdump.log" | tr '\n' ' ')
  case $line in *" 0 packets dropped by kernel"*) ;; *) note "tcpdump: $line" ;; esac
}

# =========================================================================================== our side
# shellcheck disable=SC2086
iwarp_java() { java $IW_JAVA_OPTS -jar "$IWARP_JAR" "$@"; }
# iw TAG SECS ARGS... : `iwarp ARGS` in the foreground (host side; the cell runs inside the lab namespace).
# Output in $CDIR/$CELL.iw-TAG.out, exit status in .iw-TAG.rc (and returned).
iw() {
  local tag=$1 t=$2 rc; shift 2
  # shellcheck disable=SC2086
  timeout -k 3 "$t" java $IW_JAVA_OPTS -jar "$IWARP_JAR" "$@" > "$CDIR/$CELL.iw-$tag.out" 2>&1
  rc=$?
  iw_log "$tag" "$rc" "$*"
  return $rc
}
iw_log() {
  echo "$2" > "$CDIR/$CELL.iw-$1.rc"
  { echo "\$ iwarp $3"; sed 's/^/  /' "$CDIR/$CELL.iw-$1.out"; echo "  (exit status $2)"; } >> "$CDIR/$CELL.iwarp.txt"
}
# iw_bg TAG SECS PORT ARGS... : start an iwarp server in the background; returns once it listens on PORT
declare -A IWPID=()
iw_bg() {
  local tag=$1 t=$2 port=$3 i; shift 3
  echo "$*" > "$CDIR/$CELL.iw-$tag.cmd"
  # shellcheck disable=SC2086
  timeout -k 3 "$t" java $IW_JAVA_OPTS -jar "$IWARP_JAR" "$@" > "$CDIR/$CELL.iw-$tag.out" 2>&1 &
  IWPID[$tag]=$!
  for i in $(seq 150); do
    ss -Hltn "( sport = :$port )" | grep -q . && return 0
    kill -0 "${IWPID[$tag]}" 2>/dev/null || break
    sleep 0.1
  done
  note "iwarp $tag did not listen on port $port"
  return 1
}
# iw_wait TAG SECS : sets IWRC to the exit status of a background iwarp ("none" if it had to be stopped after
# SECS). Not for $(...): `wait` only knows the children of this shell, not of a subshell.
iw_wait() {
  local tag=$1 pid=${IWPID[$1]} i
  for i in $(seq $(( $2 * 10 ))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    IWRC=none
    iw_log "$tag" none "$(cat "$CDIR/$CELL.iw-$tag.cmd") (stopped: still running after $2 s)"
    return
  fi
  wait "$pid"; IWRC=$?
  iw_log "$tag" "$IWRC" "$(cat "$CDIR/$CELL.iw-$tag.cmd")"
}
iw_has() { grep -qE -- "$2" "$CDIR/$CELL.iw-$1.out"; }     # iw_has TAG REGEX : iwarp TAG printed it
iw_line() { grep -m1 -E -- "$2" "$CDIR/$CELL.iw-$1.out" | cut -c1-200; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN{print b-a}'; }

# =========================================================================================== the two pairings
# Every iwarp cell pairs one of our tools with one of siw's, one way or the other. Both set OUR (our exit
# status), SIW (siw's program's; "none" if it had to be stopped), OURTAG/SIWTAG (for expect's ours~ and siw~)
# and RUN_SECS (the client's wall clock). Both capture "tcp port PORT" unless CAP=0. SECS bounds both programs.

# our_client PORT "GUEST SERVER" OUR_ARGS... : the guest's server (tag srv) listening on PORT, then `iwarp
# OUR_ARGS` (tag c) against it. SECS (40), OUR_SECS (SECS) ours alone; WAIT (5): how long the server may take
# to end after our client, then it is stopped.
our_client() {
  local port=$1 server=$2 secs=${SECS:-40} t0; shift 2
  OURTAG=c SIWTAG=srv
  # a previous cell's server still on the port would answer in this one's place (and this one's fail to bind)
  gsh port_free "$port" || note "port $port still bound in the guest before the server started"
  gstart srv "$secs" "$server"
  gwait_listen "$port" || note "the guest's ${server%% *} did not listen on $port"
  [ "${CAP:-1}" = 0 ] || cap_start "tcp port $port"
  t0=$(date +%s.%N)
  iw c "${OUR_SECS:-$secs}" "$@"; OUR=$?
  RUN_SECS=$(elapsed "$t0" "$(date +%s.%N)")
  [ "${CAP:-1}" = 0 ] || cap_stop
  SIW=$(gwait srv "${WAIT:-5}")
  [ "$SIW" = none ] && gstop srv
  return 0
}
# their_client PORT "GUEST CLIENT" OUR_ARGS... : `iwarp OUR_ARGS` (tag s) listening on PORT, then the guest's
# client (tag cl) against it. SECS (40), GUEST_SECS (SECS) the client alone; WAIT (10): how long our server may
# take to end after the client.
their_client() {
  local port=$1 client=$2 secs=${SECS:-40} t0; shift 2
  OURTAG=s SIWTAG=cl
  [ "${CAP:-1}" = 0 ] || cap_start "tcp port $port"
  iw_bg s "$secs" "$port" "$@"
  t0=$(date +%s.%N)
  gstart cl "${GUEST_SECS:-$secs}" "$client"
  SIW=$(gwait cl "${GUEST_SECS:-$secs}")
  RUN_SECS=$(elapsed "$t0" "$(date +%s.%N)")
  iw_wait s "${WAIT:-10}"; OUR=$IWRC
  [ "${CAP:-1}" = 0 ] || cap_stop
  return 0
}
# to_siw OUR_ARGS... : `iwarp rping -c -C 3 -S 64 -V -d OUR_ARGS` against siw's `rping -s -C 3 -S 64`
to_siw() { our_client 7174 "rping -s -a $GIP -C 3 -S 64" rping -c -a "$GIP" -C 3 -S 64 -V -d "$@"; }
# from_siw OUR_ARGS... : siw's `rping -c -C 3 -S 64 -V` (or CLIENT) against `iwarp rping -s -S 64 -d OUR_ARGS`
from_siw() { their_client 7174 "${CLIENT:-$RPING_C3}" rping -s -a "$HIP" -S 64 -d "$@"; }
# one_ping_to_siw OUR_ARGS... : `iwarp rping -c -C 1 -S 64 -V OUR_ARGS` against siw's rping -s, not captured
one_ping_to_siw() {
  CAP=0 SECS=30 our_client 7174 "rping -s -a $GIP -C 1 -S 64" rping -c -a "$GIP" -C 1 -S 64 -V "$@"
}
# to_rdma_server OUR_ARGS... : `iwarp rdma-client` against siw's rdma_server (or SERVER) on 7471
to_rdma_server() {
  SECS=${SECS:-30} our_client 7471 "${SERVER:-rdma_server -s $GIP -p 7471}" rdma-client -s "$GIP" -p 7471 -d "$@"
}
# from_rdma_client OUR_ARGS... : siw's rdma_client (or CLIENT) against `iwarp rdma-server` on 7471
from_rdma_client() {
  SECS=${SECS:-30} their_client 7471 "${CLIENT:-rdma_client -s $HIP -p 7471}" rdma-server -a "$HIP" -p 7471 -d "$@"
}

# =========================================================================================== sanity (siw only)
guest_rping() {   # guest_rping COUNT SIZE : both ends in the guest, over siw0 (10.77.0.2 -> itself, through lo)
  local rc
  gsh -p rping_pair "$GIP" "$1" "$2" > "$CDIR/$CELL.guest.txt" 2>&1
  rc=$?
  detail "$(head -1 "$CDIR/$CELL.guest.txt")"
  return $rc
}
# perftest_pair TOOL [SIZE [N2]] : -R (rdma_cm) server and client in the guest, SIZE (64 KiB). perftest's own BW
# figure relies on TSC calibration, which fails under TCG ("Correlation coefficient r^2 < 0.9" -> 0.00 MB/s), so
# the figure is also taken from the wall clock: two runs (-n 50 and -n N2, default 1050) and
# ((N2 - 50) x SIZE) / (t_N2 - t_50), which cancels connection setup.
perftest_pair() {
  local size=${2:-65536} n2=${3:-1050} rc line
  gsh -p perftest_pair "$GIP" "$1" "$size" "$n2" > "$CDIR/$CELL.guest.txt" 2>&1
  rc=$?
  line=$(awk -v size="$size" -v n2="$n2" -f - "$CDIR/$CELL.guest.txt" <<'AWK'
/^n=50 / { for (i = 1; i <= NF; i++) if ($i ~ /^seconds=/) { split($i, a, "="); t1 = a[2] } }
$1 == "n=" n2 { for (i = 1; i <= NF; i++) if ($i ~ /^seconds=/) { split($i, a, "="); t2 = a[2] } }
$1 == size { pt = $4; mr = $5 }
END {
  n = n2 - 50
  if (t2 > t1)
    printf "%.1f MB/s, %.0f messages/s (wall clock, %d x %d octets in %.2f s); " \
      "perftest itself printed %s MB/s, %s Mpps",
      n * size / 1e6 / (t2 - t1), n / (t2 - t1), n, size, t2 - t1, pt, mr
  else print "?"
}
AWK
)
  detail "$1 -R -s $size, siw<->siw in the guest (TCG): $line"
  [ $rc = 0 ]
}
tcp_to_guest() {   # plain TCP host -> guest: a line through nc
  gstart nc 20 "nc -l $GIP 5000"
  gwait_listen 5000 || return 1
  echo hello-from-host | timeout 10 nc -N "$GIP" 5000 || return 1
  gwait nc 5 > /dev/null
  [ "$(glog nc)" = hello-from-host ] && detail "ok"
}
tcp_from_guest() {   # plain TCP guest -> host: a line through nc
  local pid got
  timeout 20 nc -l "$HIP" 5001 > "$CDIR/$CELL.nc" 2>/dev/null & pid=$!
  sleep 0.5
  G "echo hello-from-guest | timeout 10 nc -N $HIP 5001" || { kill "$pid" 2>/dev/null; return 1; }
  wait "$pid"
  got=$(cat "$CDIR/$CELL.nc"); rm -f "$CDIR/$CELL.nc"
  [ "$got" = hello-from-guest ] && detail "ok"
}
tcp_rate() {   # plain TCP over the tap, 32 MiB each way, wall clock
  local t0 t1 up down n=33554432 pid
  gstart nc 60 "nc -l $GIP 5002 > /dev/null"
  gwait_listen 5002 || return 1
  t0=$(date +%s.%N)
  head -c $n /dev/zero | timeout 60 nc -N "$GIP" 5002 || return 1
  gwait nc 30 > /dev/null
  t1=$(date +%s.%N)
  up=$(awk -v a="$t0" -v b="$t1" -v n=$n 'BEGIN{printf "%.0f", n/1e6/(b-a)}')
  timeout 60 nc -l "$HIP" 5003 > /dev/null & pid=$!
  sleep 0.3
  t0=$(date +%s.%N)
  G "head -c $n /dev/zero | timeout 60 nc -N $HIP 5003" || { kill $pid 2>/dev/null; return 1; }
  wait $pid
  t1=$(date +%s.%N)
  down=$(awk -v a="$t0" -v b="$t1" -v n=$n 'BEGIN{printf "%.0f", n/1e6/(b-a)}')
  detail "plain TCP over the tap (nc, 32 MiB, wall clock): host->guest $up MB/s, guest->host $down MB/s"
}

# =========================================================================================== rping, 50 pings
# rping_rate FILE SIZE : "rounds/s MB/s" from lines "n=N seconds=T" (two runs: 20 and N2 rounds)
rping_rate() {
  awk '/^n=/{split($1,a,"="); split($2,b,"="); n[++k]=a[2]; t[k]=b[2]}
       END{ if (k==2 && t[2]>t[1]) { r=(n[2]-n[1])/(t[2]-t[1]); printf "%.0f rounds/s, %.1f MB/s", r, r*2*S/1e6 }
            else print "?" }' S="$2" "$1"
}
rping_fpdus_ok() {   # siw's FPDUs fit one MSS, ours have zero PADs
  chk "siw's FPDUs fit one MSS: ULPDU_Length <= 1442 (FINDINGS C3; got $(jget siw_max_ulpdu))" \
    is_at_most "$(jget siw_max_ulpdu)" 1442
  chk "our PADs are zero (RFC 5044 §4.1)" is "$(jget ours_nonzero_pads)" 0
}
is_at_most() { [ "$1" -le "$2" ] 2>/dev/null; }
rping_client() {   # rping_client SIZE : iwarp rping -c (-V) -> siw rping -s, 50 pings of SIZE
  local s=$1
  SECS=90 WAIT=15 our_client 7174 "rping -s -a $GIP -C 50 -S $s" rping -c -a "$GIP" -C 50 -S "$s" -V -d
  # shellcheck disable=SC2086
  expect our=0 siw=0 mpa=accept $NO_TERMS reply.c=1 crc=1 siw_n_rdma-read-request=50 ours_n_send=100 \
    ours_zero_len_writes=0
  rping_fpdus_ok
  verdict "50 pings of $s octets, validated by iwarp (-V); siw rping -s exit $SIW; CRC on, all CRCs good;" \
    "siw: $(jget siw_n_rdma-read-request) Read Requests, $(jget siw_n_rdma-write) Write FPDUs, largest ULPDU" \
    "$(jget siw_max_ulpdu), $(jget siw_nonzero_pads) with a PAD not zero (C1); iwarp: $(jget ours_n_send) Sends," \
    "$(jget ours_nonzero_pads) PADs not zero"
}
rping_server() {   # rping_server SIZE : siw rping -c (-V) -> iwarp rping -s, 50 pings of SIZE
  local s=$1
  SECS=90 WAIT=15 their_client 7174 "rping -c -a $HIP -C 50 -S $s -V" rping -s -a "$HIP" -S "$s" -d
  # shellcheck disable=SC2086
  expect our=0 siw=0 mpa=accept $NO_TERMS siw_n_send=100 ours_n_rdma-read-request=50
  chk "siw rping -c validated 50 pings (exit 0, no mismatch)" eval '! g_has cl "mismatch|error|fail"'
  rping_fpdus_ok
  verdict "50 pings of $s octets, validated by siw rping -c (-V, exit $SIW); iwarp rping -s exit $OUR; CRC" \
    "$( [ "$(jget crc)" = 1 ] && echo on || echo off); iwarp: $(jget ours_n_rdma-read-request) Read Requests," \
    "$(jget ours_n_rdma-write) Write FPDUs; siw: largest ULPDU $(jget siw_max_ulpdu), $(jget siw_nonzero_pads)" \
    "with a PAD not zero (C1)"
}

# =========================================================================================== MPA: IRD/ORD
# irdord_captures "QIRD:QORD:RIRD:RORD ..." : connection i of the capture has the i-th combination of Request
# and Reply IRD/ORD (and no Terminate); IRDORD_SEEN lists what was seen, "q/q->r/r;" per connection
irdord_captures() {
  local c i=0 qi qo ri ro
  IRDORD_SEEN=""
  for c in $1; do
    IFS=: read -r qi qo ri ro <<< "$c"
    # shellcheck disable=SC2086
    PCONN=$i chk "capture $i" psum mpa=accept $NO_TERMS request.enh.ird="$qi" request.enh.ord="$qo" \
      reply.enh.ird="$ri" reply.enh.ord="$ro"
    IRDORD_SEEN="$IRDORD_SEEN ${qi}/${qo}->$(jget reply.enh.ird)/$(jget reply.enh.ord);"
    i=$((i+1))
  done
}
# ird_ord_to_siw "IRD:ORD:RIRD:RORD ..." : one ping with each IRD/ORD of ours; siw replies RIRD/RORD
ird_ord_to_siw() {
  local c ird ord rird
  cap_start "tcp port 7174"
  for c in $1; do
    IFS=: read -r ird ord rird _ <<< "$c"
    one_ping_to_siw -d --ird "$ird" --ord "$ord"
    chk_exits "IRD $ird ORD $ord"
    chk "IRD $ird ORD $ord: iwarp adopted IRD $ird ORD $rird" iw_has c "IRD $ird, ORD $rird,"
  done
  cap_stop
  irdord_captures "$1"
}
# ird_ord_from_siw : iwarp accepts with its own IRD/ORD (16/1 to rping -c; --ird 4 --ord 2 and the derived
# 128/128 to rdma_client); the 4/2 accept: our Responder raises its IRD to the Initiator's ORD (RFC 6581 §9.1
# allows it), ORD 2 stays
ird_ord_from_siw() {
  cap_start "tcp port 7174 or tcp port 7471"
  CAP=0 SECS=30 from_siw --ird 16; chk_exits "rping -c -> rping -s --ird 16"
  CAP=0 from_rdma_client --ird 4 --ord 2; chk_exits "rdma_client -> rdma-server (4/2)"
  CAP=0 from_rdma_client; chk_exits "rdma_client -> rdma-server (128/128)"
  cap_stop
  irdord_captures "1:1:16:1 128:128:128:2 128:128:128:128"
}

# =========================================================================================== errors across the wire
# to-siw: iwarp commits the error (--inject), siw detects it, sends its Terminate (bit-mirrored, FINDINGS F1)
# and closes; iwarp must report siw's Layer/EType/Code. from-siw: iwarp makes siw commit it (--inject
# peer-*), detects it and sends its own Terminate (RFC layout, docs/protocol/errors.md §5).
# siw's rping did not get through its 3 pings (its exit status is no help: rping -c exits 0 after a disconnect)
siw_rping_stopped() { g_has "$1" "wait for .* state 10|error|fail"; }
hex_lec() { echo "0x${1//\//\/0x}"; }    # 1/2/02 -> 0x1/0x2/0x02
err_to_siw() {   # err_to_siw INJECT L/E/C MDR [hangs]
  local gs=40
  [ "${4:-}" = hangs ] && gs=12
  GUEST_SECS=$gs from_siw --inject "$1"
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp reports received $(hex_lec "$2")" iw_has s "received $(hex_lec "$2")"
  if [ "${4:-}" = hangs ]; then
    # FINDINGS M21: rping's teardown joins its CQ thread, which only ends on a completion, and after siw's
    # Terminate for a Send it had no receive for, a completion often never reaches rping's CQ: rping -c
    # waits until killed (124); about as often one does and it exits by itself (0).
    chk "siw rping -c hung in its teardown until killed (124) or ended by itself (0) (got $SIW)" \
      is_one_of "$SIW" 124 0
  else
    chk "siw rping -c ended by itself (got $SIW)" isnt "$SIW" none
    chk "siw rping -c ended by itself, not by the timeout (got $SIW)" isnt "$SIW" 124
  fi
  chk "siw rping -c stopped short" siw_rping_stopped cl
  chk "capture" psum mpa=accept siw_term="$2" siw_term_mdr="$3" siw_term_layout=siw-mirrored ours_term=none \
    "siw_close=FIN|RST"
  verdict "siw's Terminate ctrl $(jget siw_term_ctrl) = $(jget siw_term) MDR $(jget siw_term_mdr), then" \
    "$(jget siw_close); iwarp: $(iw_line s 'failed status|terminated'); siw rping -c:" \
    "$(siw_line 'wait for|error|fail' 50)"
}
err_from_siw() {   # err_from_siw client|server INJECT L/E/C MDR
  local got
  dmesg_mark
  if [ "$1" = client ]; then to_siw --inject "$2"; else from_siw --inject "$2"; fi
  got=$(siw_got_term)
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp reports sent $(hex_lec "$3")" iw_has "$OURTAG" "sent $(hex_lec "$3")"
  chk "siw ended by itself (got $SIW)" isnt "$SIW" none
  chk "siw's rping stopped short" siw_rping_stopped "$SIWTAG"
  chk "siw's kernel log reports our Terminate" isnt "$got" ""
  # we close after our Terminate: FIN, or RST when siw's next FPDUs are still unread in our socket (then siw,
  # which read our Terminate before the RST, has no FIN to send)
  chk "capture" psum mpa=accept ours_term="$3" ours_term_mdr="$4" ours_term_layout=rfc siw_term=none \
    "ours_close=FIN|RST"
  verdict "our Terminate ctrl $(jget ours_term_ctrl) = $(jget ours_term) MDR $(jget ours_term_mdr) (RFC 5040" \
    "layout), then $(jget ours_close); iwarp: $(iw_line "$OURTAG" 'failed status|terminated'); siw:" \
    "\"${got:-nothing in dmesg}\" (its mirrored reading of our control word), rping:" \
    "$(siw_line 'wait for|error|fail' 50)"
}

# =========================================================================================== the accept race
# siw sends its MPA Reply before it hands the socket to the queue pair (siw_accept(): siw_send_mpareqrep(),
# then siw_qp_socket_assoc() / siw_sk_assign_rtr_upcalls()); an FPDU that arrives in between is not read until
# more octets come (FINDINGS M15). The window is tiny and our Initiator rarely hits it (3 of ~300 connections
# in the lab), so the lab's siw.ko can widen it (siwlab_accept_race_ms, build.sh): then every first FPDU is
# stranded, and the cell shows iwarp's first-FPDU nudge (ConnectOptions.firstFpduNudge, --nudge) recovering it.
accept_race_nudge() {
  local mode i nudged=0 out=""
  cap_start "tcp port 7174"
  OUR_SECS=6 WAIT=0 one_ping_to_siw --nudge 0
  chk "control: without the nudge the first FPDU stays stranded (iwarp stopped after 6 s, got $OUR)" is "$OUR" 124
  for mode in "" "--p2p write" "--p2p read"; do
    # shellcheck disable=SC2086
    one_ping_to_siw --nudge 300 $mode
    chk_exits "${mode:-client-server}"
    iw_has c "first-FPDU nudge" && nudged=$((nudged+1))
  done
  cap_stop
  for i in 1 2 3; do
    # shellcheck disable=SC2086
    PCONN=$i chk "capture $i: one zero-length Write more than the RTR" psum mpa=accept $NO_TERMS \
      ours_zero_len_writes="$( [ $i = 2 ] && echo 2 || echo 1)"
    out="$out $(jget ours_ops | cut -d, -f1-2)"
  done
  chk "the nudge was needed and sent in all 3 connections (got $nudged)" is "$nudged" 3
  verdict "siwlab_accept_race_ms=200: without the nudge the connection hung; with --nudge 300 all 3 completed," \
    "each after one zero-length Write (first FPDUs:$out)"
}

# =========================================================================================== may crash siw's kernel
# to_siw_may_crash OUR_ARGS... : to_siw, then siw's kernel log. RFC 6581 §9.3 (MPA-74): an Initiator that can
# send none of the RTRs the Reply allows sends Terminate 2/0/07 as its first FPDU. siw 6.1 as a peer-to-peer
# Responder then reports a CLOSE to iw_cm while the connection is not yet ESTABLISHED (siw raises ESTABLISHED
# only on the RTR), and iw_cm's close handler BUG()s ("kernel BUG at drivers/infiniband/core/iwcm.c:969",
# FINDINGS M16): iw_cm's work queue dies and every later connection of that guest hangs. So the cell runs last
# and, if the guest crashed, asks run-matrix.sh to reboot it before any further cell. SIW_SAID: what siw did.
to_siw_may_crash() {
  if [ "${SIWLAB_NET:-tap}" = remote ] && [ "${SIWLAB_ALLOW_KERNEL_BUG:-0}" != 1 ]; then
    detail "not run against a real siw host: siw 6.1 hits a kernel BUG in iw_cm here (FINDINGS M16);" \
      "SIWLAB_ALLOW_KERNEL_BUG=1 runs it"
    return $NOT_RUN
  fi
  dmesg_mark
  to_siw "$@"
  SIW_SAID="siw rping -s exit $SIW"
  if dmesg_new | grep -q 'kernel BUG at drivers/infiniband/core/iwcm.c'; then
    SIW_SAID="siw: $(siw_got_term), then $(dmesg_new | grep -m1 'kernel BUG at' | sed 's/^\[[^]]*\] //')"
    SIW_SAID+=" (the guest is rebooted before any further cell)"
    G "dmesg | grep -B2 -A12 'kernel BUG at'" >> "$CDIR/$CELL.notes" 2>&1
    touch "$CDIR/$CELL.restart-lab"
  fi
  return 0
}

# =========================================================================================== performance
# These cells predate iwarp perf's perftest exchange (the perftest-* cells pair it with siw's perftest); the
# host<->guest figures here come from rping, the one streaming-free exchange both stacks speak: one round moves
# -S octets by RDMA Read and -S octets back by RDMA Write, plus four 16-octet Sends. The same rping between
# two siw endpoints inside the guest is the like-for-like reference; perftest's siw<->siw figures
# (siw-perftest-*) are printed beside them. All under TCG: read them as ratios, not as absolute speeds.
siw_rping_rate() {   # siw<->siw rping in the guest, -S 65535 and -S 64 (wall clock, two runs to cancel the setup)
  gsh -p rping_rate "$GIP" 65535 220 > "$CDIR/$CELL.big" 2>&1
  gsh -p rping_rate "$GIP" 64 1020 > "$CDIR/$CELL.small" 2>&1
  cat "$CDIR/$CELL.big" "$CDIR/$CELL.small" > "$CDIR/$CELL.guest.txt"
  grep -q 'rc=[1-9]' "$CDIR/$CELL.guest.txt" && { detail "an rping failed"; return 1; }
  detail "siw<->siw in the guest: -S 65535: $(rping_rate "$CDIR/$CELL.big" 65535); -S 64:" \
    "$(rping_rate "$CDIR/$CELL.small" 64)"
}
perf_cell() {   # perf_cell client|server SIZE ROUNDS "what moves" REF_CELL : rping's round rate, iwarp <-> siw
  local role=$1 s=$2 k
  IW_JAVA_OPTS=${IWARP_MATRIX_PERF_JAVA_OPTS:-}
  : > "$CDIR/$CELL.rate"
  for k in 20 "$3"; do
    if [ "$role" = client ]; then
      CAP=0 SECS=120 WAIT=10 our_client 7174 "rping -s -a $GIP -C $k -S $s" rping -c -a "$GIP" -C "$k" -S "$s" -V
      [ "$OUR" = 0 ] || FAILS+=("iwarp rping -c -C $k")
      [ "$SIW" = 0 ] || FAILS+=("siw rping -s -C $k")
    else
      CAP=0 SECS=120 their_client 7174 "rping -c -a $HIP -C $k -S $s -V" rping -s -a "$HIP" -S "$s"
      [ "$SIW" = 0 ] || FAILS+=("siw rping -c -C $k")
      [ "$OUR" = 0 ] || FAILS+=("iwarp rping -s")
    fi
    echo "n=$k seconds=$RUN_SECS" >> "$CDIR/$CELL.rate"
  done
  cat "$CDIR/$CELL.rate" >> "$CDIR/$CELL.notes"
  verdict "iwarp $1 <-> siw, rping -S $2 ($4): $(rping_rate "$CDIR/$CELL.rate" "$2") -- beside tcp-rate (the" \
    "path's TCP ceiling), siw-rping-rate and $5 (wall clock, TCG guest; the JVM start-up cancels out)"
}

# =========================================================================================== perftest both ways
# iwarp perf speaks perftest 4.5+0.17's control exchange (docs/perftest-wire.md): siw's ib_*_bw -R / ib_*_lat -R
# against it, both roles, PT_ITERS iterations, CRC as iwarp's default (on).
pt_line() {   # pt_line FILE : perftest's first result line after the column header, blanks squeezed
  # (a log line of iwarp's, "[thread] INFO ...", may come between)
  awk 'p && NF && !/^\[/ { print; exit } /#bytes/ { p = 1 }' "$1" 2>/dev/null |
    sed 's/^[[:space:]]*//; s/[[:space:]]\{1,\}/ /g'
}
# pt_pair to|from TOOL "OUR VERB ARGS" SIZE [SECS] : iwarp perf (client) -> siw TOOL -R (server), or siw's client
# -> iwarp perf (server); PT_CLIENT and PT_SERVER name the files with each side's output. PT_RUN: how long both
# ends run (default -n PT_ITERS)
pt_pair() {
  local dir=$1 tool=$2 verb=$3 size=$4 run=${PT_RUN:--n $PT_ITERS}
  # shellcheck disable=SC2086
  if [ "$dir" = to ]; then
    SECS=80 WAIT=20 our_client 18515 "$tool -R -d siw0 -s $size $run -F" \
      perf $verb "$GIP" -s "$size" $run
    PT_SERVER="$CDIR/$CELL.siw.txt" PT_CLIENT="$CDIR/$CELL.iw-c.out"
  else
    SECS=80 WAIT=20 their_client 18515 "$tool -R -d siw0 -s $size $run -F $HIP" \
      perf $verb -s "$size" $run
    PT_SERVER="$CDIR/$CELL.iw-s.out" PT_CLIENT="$CDIR/$CELL.siw.txt"
  fi
  glog "$SIWTAG" > "$CDIR/$CELL.siw.txt"
}
# pt_cell to|from TOOL "OUR VERB ARGS" SIZE : one pairing. Both exit 0; the figures agree (Write/Read bandwidth:
# the server prints the client's report, so both lines must be the same; Send: both measure, so both lines must
# have the size and the iteration count; latency: the client's line); the test connection of the capture (its
# last: the client's failed tries come before it) is accepted and has no Terminate.
pt_cell() {
  local dir=$1 tool=$2 verb=$3 size=$4 c s
  pt_pair "$@"
  chk "iwarp exit 0 (got $OUR)" is "$OUR" 0
  chk "siw $tool exit 0 (got $SIW)" is "$SIW" 0
  c=$(pt_line "$PT_CLIENT"); s=$(pt_line "$PT_SERVER")
  chk "the client printed $size octets x $PT_ITERS (got '$c')" starts_with "$c" "$size $PT_ITERS "
  case $tool in
    ib_write_bw|ib_read_bw) chk "the server printed the client's line (client '$c', server '$s')" is "$s" "$c" ;;
    ib_send_bw) chk "the server printed $size octets x $PT_ITERS (got '$s')" starts_with "$s" "$size $PT_ITERS " ;;
  esac
  PCONN=-1 chk "capture: test connection accepted, no Terminate" psum mpa=accept siw_term=none ours_term=none
  verdict "iwarp perf $verb ($( [ "$dir" = to ] && echo client || echo server)) with siw $tool -R -s $size -n" \
    "$PT_ITERS: both exit 0; client: $c; server: ${s:-(no table: the ${tool} server only closes)}"
}
# pt_span LINE : a bandwidth line's #iterations over its message rate: the seconds its count was measured in
pt_span() { awk '{ if ($5 > 0) printf "%.2f", $2 / ($5 * 1e6); else print "none" }' <<< "$1"; }
pt_between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "none" && x + 0 >= lo && x + 0 <= hi) }'; }
# pt_dur_line LINE SIZE : SIZE octets, a count, and no peak (perftest's noPeak in duration mode prints 0.00)
pt_dur_line() { awk -v s="$2" '{ exit !($1 == s && $2 > 0 && $3 == "0.00") }' <<< "$1"; }
# pt_near A B : two counts within a quarter of each other
pt_near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b > 0 && a <= 1.25 * b && b <= 1.25 * a) }'; }
# pt_duration_cell to|from TOOL "OUR VERB" SIZE : perftest's duration mode over its exchange, -D PT_DURATION
# -f PT_MARGIN at both ends. Both exit 0; the client's line has the size, a count and no peak; the line our side
# timed (our client's; our Send server's, which times its own span from the first Send) has a count over its
# message rate of about -D minus the two margins. siw's perftest times itself with the CPU's cycle counter, which
# under TCG now and then measures no time at all (a count with 0.00 MB/s): its line is not judged by its span.
# Write/Read: the server printed the client's line; Send: the server counted about the client's Sends.
pt_duration_cell() {
  local dir=$1 tool=$2 verb=$3 size=$4 c s ours cs ss os measured=$((PT_DURATION - 2 * PT_MARGIN))
  PT_RUN="-D $PT_DURATION -f $PT_MARGIN" pt_pair "$@"
  chk "iwarp exit 0 (got $OUR)" is "$OUR" 0
  chk "siw $tool exit 0 (got $SIW)" is "$SIW" 0
  c=$(pt_line "$PT_CLIENT"); s=$(pt_line "$PT_SERVER"); cs=$(pt_span "$c"); ss=$(pt_span "$s")
  chk "the client printed $size octets, a count, peak 0.00 (got '$c')" pt_dur_line "$c" "$size"
  if [ "$dir" = to ]; then ours=$c; os=$cs; elif [ "$tool" = ib_send_bw ]; then ours=$s; os=$ss; else ours=""; fi
  if [ -n "$ours" ]; then
    chk "our line's count / message rate is about ${measured} s (got ${os} s)" pt_between "$os" \
      "$(awk -v m="$measured" 'BEGIN { print m * 0.9 }')" "$(awk -v m="$measured" 'BEGIN { print m * 1.25 }')"
  fi
  case $tool in
    ib_write_bw|ib_read_bw) chk "the server printed the client's line (client '$c', server '$s')" is "$s" "$c" ;;
    ib_send_bw)
      chk "the server printed $size octets, a count, peak 0.00 (got '$s')" pt_dur_line "$s" "$size"
      chk "the server counted about the client's Sends (client '$c', server '$s')" \
        pt_near "$(awk '{ print $2 }' <<< "$c")" "$(awk '{ print $2 }' <<< "$s")" ;;
  esac
  PCONN=-1 chk "capture: test connection accepted, no Terminate" psum mpa=accept siw_term=none ours_term=none
  verdict "iwarp perf $verb ($( [ "$dir" = to ] && echo client || echo server)) with siw $tool -R -s $size -D" \
    "$PT_DURATION -f $PT_MARGIN: both exit 0; client: $c (${cs} s); server: $s (${ss} s)"
}
# pt_lat_span LINE : a duration-latency line's #iterations over its tps: the seconds its count was measured in
pt_lat_span() { awk '{ if ($4 > 0) printf "%.2f", $2 / $4; else print "none" }' <<< "$1"; }
# pt_lat_duration_cell to|from TOOL "OUR VERB" SIZE : perftest's latency duration mode (-D PT_DURATION -f
# PT_MARGIN) over its exchange. Both exit 0; the client's line has the size and a count; the line our side timed
# has a count over its tps of about -D minus the two margins (siw's, timed by its cycle counter under TCG, is not
# judged by its span); Send, where both ends count: the two counts about the same.
pt_lat_duration_cell() {
  local dir=$1 tool=$2 verb=$3 size=$4 c s ours os measured=$((PT_DURATION - 2 * PT_MARGIN))
  PT_RUN="-D $PT_DURATION -f $PT_MARGIN" pt_pair "$@"
  chk "iwarp exit 0 (got $OUR)" is "$OUR" 0
  chk "siw $tool exit 0 (got $SIW)" is "$SIW" 0
  c=$(pt_line "$PT_CLIENT"); s=$(pt_line "$PT_SERVER")
  if [ "$dir" = to ]; then ours=$c; else ours=$s; fi
  os=$(pt_lat_span "$ours")
  chk "the client printed $size octets and a count (got '$c')" awk -v l="$c" -v z="$size" \
    'BEGIN { split(l, f, " "); exit !(f[1] == z && f[2] > 0) }'
  chk "our line's count / tps is about ${measured} s (got ${os} s from '$ours')" pt_between "$os" \
    "$(awk -v m="$measured" 'BEGIN { print m * 0.9 }')" "$(awk -v m="$measured" 'BEGIN { print m * 1.3 }')"
  if [ "$tool" = ib_send_lat ]; then
    chk "both ends counted about the same round trips (client '$c', server '$s')" \
      pt_near "$(awk '{ print $2 }' <<< "$c")" "$(awk '{ print $2 }' <<< "$s")"
  fi
  PCONN=-1 chk "capture: test connection accepted, no Terminate" psum mpa=accept siw_term=none ours_term=none
  verdict "iwarp perf $verb ($( [ "$dir" = to ] && echo client || echo server)) with siw $tool -R -s $size -D" \
    "$PT_DURATION -f $PT_MARGIN: both exit 0; client: $c ($(pt_lat_span "$c") s); server: ${s:-(no table)}"
}
# pt_bidir_cell to|from TOOL "OUR VERB" SIZE : perftest's bidirectional bandwidth (-b, -n PT_ITERS): both ends
# send at once and each prints its own line of SIZE x PT_ITERS; both exit 0; no Terminate.
pt_bidir_cell() {
  local dir=$1 tool=$2 verb=$3 size=$4 c s
  PT_RUN="-n $PT_ITERS -b" pt_pair "$@"
  chk "iwarp exit 0 (got $OUR)" is "$OUR" 0
  chk "siw $tool exit 0 (got $SIW)" is "$SIW" 0
  c=$(pt_line "$PT_CLIENT"); s=$(pt_line "$PT_SERVER")
  chk "the client printed $size octets x $PT_ITERS (got '$c')" starts_with "$c" "$size $PT_ITERS "
  chk "the server printed $size octets x $PT_ITERS (got '$s')" starts_with "$s" "$size $PT_ITERS "
  PCONN=-1 chk "capture: test connection accepted, no Terminate" psum mpa=accept siw_term=none ours_term=none
  verdict "iwarp perf $verb ($( [ "$dir" = to ] && echo client || echo server)) with siw $tool -R -b -s $size" \
    "-n $PT_ITERS: both exit 0; client: $c; server: $s"
}
# pt_atomic_cell to|from TOOL "OUR VERB" : siw 6.1 has no atomics; both ends must say so and end
pt_atomic_cell() {
  local dir=$1 tool=$2 said
  pt_pair "$dir" "$tool" "$3" 8
  chk "iwarp ended (exit $OUR)" isnt "$OUR" none
  chk "siw $tool ended (exit $SIW)" isnt "$SIW" none
  if [ "$dir" = to ]; then
    chk "iwarp reports its failed atomic" iw_has c "completion failed on a test queue pair"
    said=$(iw_line c 'iwarp perf')
  else
    chk "siw's $tool cannot post an atomic" grep -q "Couldn't post send" "$PT_CLIENT"
    said=$(grep -m1 "Couldn't post" "$PT_CLIENT")
  fi
  verdict "siw 6.1 has no atomics (its device says so, its perftest cannot post one): the control exchange" \
    "pairs, then iwarp exit $OUR, siw exit $SIW -- $said"
}
# pt_write_lat_held : ib_write_lat's server writes first; an MPA Responder may not send before the Initiator's
# first FPDU (RFC 5044 §7.1.2 rule 4, MPA-38), which siw does not hold itself to (FINDINGS M14) and we do: with
# siw's client, which waits for the server's Write, our Writes stay held. iwarp gives up after 30 s.
pt_write_lat_held() {
  cap_start "tcp port 18515"
  iw_bg s 60 18515 perf write --latency -s 64 -n "$PT_ITERS"
  gstart cl 60 "ib_write_lat -R -d siw0 -s 64 -n $PT_ITERS -F $HIP"
  iw_wait s 50; OUR=$IWRC
  SIW=$(gwait cl 3); [ "$SIW" = none ] && gstop cl
  cap_stop
  glog cl > "$CDIR/$CELL.siw.txt"
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp names the held Writes and RFC 5044 §7.1.2 rule 4" iw_has s "held.*RFC 5044 §7.1.2 rule 4"
  PCONN=-1 chk "capture: test connection accepted, no FPDU from iwarp on it, no Terminate" \
    psum mpa=accept ours_count=0 siw_term=none
  verdict "as RFC 5044 requires of a Responder, iwarp sent nothing on the test connection before siw's client" \
    "did, and siw's ib_write_lat client sends nothing before the server's first Write: iwarp exit $OUR" \
    "($(iw_line s 'iwarp perf' | cut -c1-100)...), siw's client ${SIW/none/stopped}"
}

# =========================================================================================== iwarp conformance
# `iwarp conformance` checks siw rule by rule against RFC 5044/6581/5041/5040/7306, each check on a fresh
# connection. With --profile siw the deviations FINDINGS.md documents come out as "known" checks, each problem
# tagged (Profile.SIW names the finding); a cell passes iff the tool exits 0 (no check failed) AND the known
# deviations it measured include every tag of the cell's `known` field. Evidence: $CELL.json (the tool's JSON, one
# "runs" entry per group), $CELL.<group>.junit.xml, $CELL.pcap (every connection).
CONF_WAIT_MS=${SIWLAB_CONF_TIMEOUT_MS:-8000}
# deviations siw shows now and then, in different checks from run to run (FINDINGS C11)
CONF_RACY_TAGS="zero-read-answered-with-data"
CONF_PORT=7180
conf_eval() {   # conf_eval JSON "TAG..." [STRICT_OF] : one line; see interop/conformance-eval.py
  "$SIWLAB_PYTHON" "$HERE/conformance-eval.py" eval "$1" "$2" "${3:-}" "$CONF_RACY_TAGS"
}
# checks CHECKS... : check lists with ranges, as --only takes them: "2.1-3,2.14-15" -> "2.1,2.2,2.3,2.14,2.15"
checks() {
  local w item out
  for w in "$@"; do
    out=""
    for item in ${w//,/ }; do
      [[ $item =~ ^([0-9]+)\.([0-9]+)-([0-9]+)$ ]] &&
        item=$(seq -s, -f "${BASH_REMATCH[1]}.%g" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}")
      out+=${out:+,}$item
    done
    echo "$out"
  done
}
# conf_run TAG ARGS... : the tool (--app $CONF_APP, default rping) against ${CONF_HOST:-$GIP}:$CONF_PORT (JSON to
# $CELL.TAG.json, JUnit XML to $CELL.TAG.junit.xml); sets CONFRC
conf_run() {
  local tag=$1 target="${CONF_HOST:-$GIP}:$CONF_PORT" role=${CONF_ROLE:-responder} app=${CONF_APP:-rping}; shift
  echo "\$ iwarp conformance --target $target --role $role --app $app --timeout $CONF_WAIT_MS $*" \
    >> "$CDIR/$CELL.iwarp.txt"
  # shellcheck disable=SC2086
  timeout -k 3 "${CONF_SECS:-200}" java $IW_JAVA_OPTS -jar "$IWARP_JAR" conformance --target "$target" \
    --role "$role" --app "$app" --timeout "$CONF_WAIT_MS" --json --junit-xml "$CDIR/$CELL.$tag.junit.xml" "$@" \
    > "$CDIR/$CELL.$tag.json" 2> "$CDIR/$CELL.$tag.err"
  CONFRC=$?
  echo "  (exit status $CONFRC)" >> "$CDIR/$CELL.iwarp.txt"
  sed 's/^/  /' "$CDIR/$CELL.$tag.err" >> "$CDIR/$CELL.iwarp.txt"; rm -f "$CDIR/$CELL.$tag.err"
  return $CONFRC
}
# conf_groups "GROUPS" ARGS... : each group against its own rping -s -P, each on a port of its own (7181...):
# siw 6.1 can lose a listener when our close meets its 5 s MPA timeout (FINDINGS M23; --timeout 8000 keeps the
# checks clear of that timeout, but not always), and a lost listener keeps its port bound until the guest
# reboots. A group whose listener was lost mid-run runs once more on a fresh port; a cell that saw siw's
# refcount warning asks for a fresh guest before the next cell. Merges the JSONs into $CELL.json; CONFRCS
# lists the exit statuses.
conf_groups() {
  local groups=$1 g n=0 try ok files=(); shift
  CONFRCS=""
  dmesg_mark
  cap_start "tcp portrange 7181-7199"
  for g in $groups; do
    n=$((n + 1))
    for try in 1 2; do
      CONF_PORT=$((CONF_PORT + 1))
      gstart "rsp$CONF_PORT" 300 "rping -s -P -a $GIP -p $CONF_PORT -S 64"
      gwait_listen "$CONF_PORT" || note "rping -s -P did not listen on $CONF_PORT"
      conf_run "g$n" --only "$g" "$@"
      ok=1; gsh listening "$CONF_PORT" 1 || ok=0
      gstop "rsp$CONF_PORT"
      if [ "$CONFRC" != 0 ] && grep -q 'cannot connect to' "$CDIR/$CELL.g$n.json" && [ $try = 1 ]; then
        note "group $g: siw lost its listener on $CONF_PORT during the run (FINDINGS M23); the group runs again" \
          "on a fresh port"
        mv "$CDIR/$CELL.g$n.json" "$CDIR/$CELL.g$n.lost-listener.json"
        continue
      fi
      [ $ok = 1 ] || note "group $g: siw's listener on $CONF_PORT was gone at the end (FINDINGS M23)"
      break
    done
    CONFRCS="$CONFRCS $CONFRC"
    files+=("$CDIR/$CELL.g$n.json")
  done
  cap_stop
  if dmesg_new | grep -q 'siw_cep_put\|refcount_t'; then
    note "siw's kernel log shows its cep refcount warning (FINDINGS M23): the next cell gets a fresh guest"
    dmesg_new | grep -A3 'WARNING' | head -20 >> "$CDIR/$CELL.notes"
    touch "$CDIR/$CELL.restart-lab"
  fi
  "$SIWLAB_PYTHON" "$HERE/conformance-eval.py" merge "$CDIR/$CELL.json" "${files[@]}"
  rm -f "${files[@]}"
}
all_zero() { local r; for r in $1; do [ "$r" = 0 ] || return 1; done; }
# conf_responder GROUP... : --profile siw over the groups (check lists as `checks` takes them), one rping -s -P
# each; exit 0 and every known tag measured
conf_responder() {
  local line rc
  conf_groups "$(checks "$@")" --profile siw || return 1
  line=$(conf_eval "$CDIR/$CELL.json" "$KNOWN"); rc=$?
  all_zero "$CONFRCS" || { line="iwarp conformance exit statuses:$CONFRCS; $line"; rc=1; }
  detail "responder (rping -s -P), --profile siw: $line"
  return $rc
}
# conf_responder_strict GROUP... : --profile strict; the checks that fail must be exactly those the
# --profile siw run of conformance-siw-responder marked known
conf_responder_strict() {
  local ref="$CDIR/conformance-siw-responder.json" line rc r
  [ -s "$ref" ] || { detail "needs the results of conformance-siw-responder (run it first)"; return $NOT_RUN; }
  conf_groups "$(checks "$@")" --profile strict || return 1
  line=$(conf_eval "$CDIR/$CELL.json" "" "$ref"); rc=$?
  for r in $CONFRCS; do
    [ "$r" = 0 ] || [ "$r" = 1 ] || { line="iwarp conformance exit statuses:$CONFRCS; $line"; rc=1; break; }
  done
  detail "responder, --profile strict: $line"
  return $rc
}
# conf_perftest TOOL TEST CHECKS : --app perftest --profile siw against siw's TOOL -R -s 64 restarted in a loop in
# the guest (a perftest server serves one client, and each check is one run: the tool opens perftest's control
# connection, exchanges its messages up to the server's pingpong_dest, runs the check on the test connection;
# docs/perftest-wire.md). Exit 0, the known tags measured, and no check skipped because perftest's exchange broke
# (every check reached the server's buffer).
conf_perftest() {
  local tool=$1 test=$2 line rc
  CONF_PORT=18515
  dmesg_mark
  G "cat > /tmp/ptloop.sh" < "$HERE/guest/perftest-loop.sh"
  # the last cell's perftest may still hold the port for a moment after its loop was stopped
  gsh port_free 18515 || note "port 18515 still bound in the guest before the loop started"
  cap_start "tcp port 18515"
  gstart ptloop 240 "sh /tmp/ptloop.sh $tool"
  gwait_listen 18515 || note "siw $tool did not listen on 18515"
  CONF_APP=perftest CONF_SECS=220 conf_run all --only "$(checks "$3")" --profile siw --perftest "$test" \
    --perftest-size 64 --perftest-iterations 1000
  gstop ptloop
  gsh gone "$tool" || note "$tool still running in the guest 5 s after its loop was stopped"
  cap_stop
  glog ptloop > "$CDIR/$CELL.siw.txt"
  mv "$CDIR/$CELL.all.json" "$CDIR/$CELL.json"
  line=$(conf_eval "$CDIR/$CELL.json" "$KNOWN"); rc=$?
  [ "$CONFRC" = 0 ] || { line="iwarp conformance exit status $CONFRC; $line"; rc=1; }
  if grep -q "perftest's control exchange" "$CDIR/$CELL.json"; then
    line="$line; perftest's exchange BROKE: $(grep -o "perftest's control exchange[^\"]*" "$CDIR/$CELL.json" |
      sort | uniq -c | head -3)"
    rc=1
  fi
  detail "siw $tool -R -s 64 in a loop ($(grep -c ' exit ' "$CDIR/$CELL.siw.txt") runs), --app perftest" \
    "--perftest $test --profile siw: $line"
  return $rc
}
# The peer as Initiator: siw's rping -c runs in a loop in the guest, one connection per check, towards the tool
# listening on $HIP:7190. siw's rping -c gives up on a missing Reply after 10 s (FINDINGS M11), so the checks
# that send none wait for that.
# conf_initiator CHECKS ARGS... : the tool's JSON in $CELL.json; sets CONFRC
conf_initiator() {
  local list=$1 pid i; shift
  CONF_PORT=7190
  dmesg_mark
  G "cat > /tmp/rcloop.sh" < "$HERE/guest/rping-loop.sh"
  cap_start "tcp port $CONF_PORT"
  # the tool listens first: an rping -c refused by a port nobody listens on yet can take seconds to try again
  CONF_ROLE=initiator CONF_HOST=$HIP conf_run all --only "$(checks "$list")" "$@" & pid=$!
  for i in $(seq 150); do ss -Hltn "( sport = :$CONF_PORT )" | grep -q . && break; sleep 0.1; done
  gstart rcloop "${CONF_SECS:-600}" "sh /tmp/rcloop.sh $HIP $CONF_PORT"
  wait "$pid"; CONFRC=$?
  gstop rcloop
  cap_stop
  mv "$CDIR/$CELL.all.json" "$CDIR/$CELL.json"
}
# conf_initiator_cell CHECKS ARGS... : --profile siw; exit 0 and every known tag measured
conf_initiator_cell() {
  local line rc
  conf_initiator "$1" --profile siw "${@:2}" || return 1
  line=$(conf_eval "$CDIR/$CELL.json" "$KNOWN"); rc=$?
  [ "$CONFRC" = 0 ] || { line="iwarp conformance exit status $CONFRC; $line"; rc=1; }
  detail "initiator (rping -c in a loop), --profile siw: $line"
  return $rc
}
# conf_initiator_pd : checks 2.13 (a Reply with 512 octets of private data, the RFC's limit) and 2.12 (513): siw
# takes at most 256 (FINDINGS M9) and, as Initiator, neither answers nor closes; its rping -c cannot be killed
# (M25). So each runs on its own, 2.13 first, and the next cell gets a fresh guest.
conf_initiator_pd() {
  local one two rc=0
  CONF_SECS=50 conf_initiator 2.13 --profile siw; mv "$CDIR/$CELL.json" "$CDIR/$CELL.2.13.json"
  CONF_SECS=50 conf_initiator 2.12 --profile siw; mv "$CDIR/$CELL.json" "$CDIR/$CELL.2.12.json"
  touch "$CDIR/$CELL.restart-lab"
  one=$(conf_eval "$CDIR/$CELL.2.13.json" "$KNOWN") || rc=1
  two=$(conf_eval "$CDIR/$CELL.2.12.json" "$KNOWN") || rc=1
  G "ps -eo pid,stat,cmd | grep '[r]ping -c'" >> "$CDIR/$CELL.notes" 2>&1
  detail "2.13: $one; 2.12: $two"
  return $rc
}

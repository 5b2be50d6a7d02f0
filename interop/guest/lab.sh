# shellcheck shell=sh
# The guest's side of the matrix cells. interop/cells.sh runs `gsh FUNCTION ARGS...`: it sends this file (without
# its comments and indentation) and the call as one command to the guest's shell, so that no cell writes a guest
# script inside a quoted string; `gsh -p` adds pairs.sh. A program started here is known by its tag: its output
# is in /tmp/TAG.log, its exit status in /tmp/TAG.rc, the pid of its session in /tmp/TAG.pid (programs are never
# found by name). The waits count without seq: under TCG every process the guest starts costs ~0.1 s.

# start TAG SECS CMD : CMD (one string, split by sh) in the background, in a session of its own, bounded by SECS
start() {
  tag=$1 secs=$2
  shift 2
  rm -f "/tmp/$tag.rc" "/tmp/$tag.log" "/tmp/$tag.pid"
  setsid sh -c "timeout --foreground -k 2 $secs $*; echo \$? > /tmp/$tag.rc" > "/tmp/$tag.log" 2>&1 < /dev/null &
  echo $! > "/tmp/$tag.pid"
}
# status TAG SECS : waits (<= SECS) until TAG ended; prints its exit status, or "none"
status() {
  i=$(( $2 * 10 ))
  while [ "$i" -gt 0 ] && [ ! -s "/tmp/$1.rc" ]; do sleep 0.1; i=$((i - 1)); done
  cat "/tmp/$1.rc" 2>/dev/null || echo none
}
# stop TAG : ends TAG's whole session
stop() {
  p=$(cat "/tmp/$1.pid" 2>/dev/null)
  [ -n "$p" ] && kill -TERM -- "-$p" 2>/dev/null
  true
}
log() { cat "/tmp/$1.log" 2>/dev/null; }
# has TAG REGEX : TAG printed a line that matches (grep -E)
has() { grep -qE -- "$2" "/tmp/$1.log"; }
# evidence TAG : its output and exit status (run-matrix.sh copies them into the cell's evidence)
evidence() {
  log "$1"
  echo "(exit status: $(cat "/tmp/$1.rc" 2>/dev/null || echo still running/killed))"
}

# listening PORT [TRIES [STEP]] : waits (100 x 0.1 s) until something listens on PORT (siw's listeners show in ss)
listening() {
  i=${2:-100}
  while [ "$i" -gt 0 ]; do ss -Hltn "( sport = :$1 )" | grep -q . && return 0; sleep "${3:-0.1}"; i=$((i - 1)); done
  return 1
}
# port_free PORT : waits (<= 5 s) until nothing listens on PORT
port_free() {
  i=50
  while [ "$i" -gt 0 ]; do ss -Hltn "( sport = :$1 )" | grep -q . || return 0; sleep 0.1; i=$((i - 1)); done
  return 1
}
# gone NAME : waits (<= 5 s) until no process is called NAME
gone() {
  i=50
  while [ "$i" -gt 0 ]; do pgrep -x "$1" > /dev/null || return 0; sleep 0.1; i=$((i - 1)); done
  return 1
}

# siw's module parameters (the lab's patched siw.ko has them; a stock one has none)
param_writable() { [ -w "/sys/module/siw/parameters/$1" ]; }
param_set() { echo "$2" > "/sys/module/siw/parameters/$1"; }
params_reset() {
  cd /sys/module/siw/parameters || return 1
  echo N > mpa_crc_required && echo N > mpa_crc_strict && echo N > peer_to_peer && echo 2 > mpa_version &&
    echo N > try_gso && { [ ! -e siwlab_accept_race_ms ] || echo 0 > siwlab_accept_race_ms; }
}

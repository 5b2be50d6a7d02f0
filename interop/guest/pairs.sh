# shellcheck shell=sh
# The siw<->siw pairs of the sanity cells, run in the guest by `gsh -p FUNCTION ARGS...` (interop/cells.sh),
# after lab.sh (listening).

elapsed() { echo "$2 - $1" | bc -l 2>/dev/null || awk "BEGIN{print $2-$1}"; }

# rping_pair ADDR COUNT SIZE : siw<->siw rping, both ends here (-V); prints both exit statuses
rping_pair() {
  timeout 40 rping -s -a "$1" -C "$2" -S "$3" -v > /tmp/gp-s.log 2>&1 < /dev/null &
  sp=$!
  listening 7174 || true
  timeout 40 rping -c -a "$1" -C "$2" -S "$3" -v -V > /tmp/gp-c.log 2>&1 < /dev/null
  crc=$?
  wait $sp
  src=$?
  echo "client rc=$crc server rc=$src"
  tail -2 /tmp/gp-c.log
  [ $crc = 0 ] && [ $src = 0 ]
}

# perftest_pair ADDR TOOL SIZE N2 : TOOL -R server and client here, -n 50 then -n N2 (wall clock of each)
perftest_pair() { perftest_once "$1" "$2" "$3" 50 && perftest_once "$1" "$2" "$3" "$4"; }
perftest_once() {
  timeout 60 "$2" -R -d siw0 -s "$3" -n "$4" -F > /tmp/pt-s.log 2>&1 < /dev/null &
  sp=$!
  listening 18515 100 0.05 || true
  t0=$(date +%s.%N)
  timeout 60 "$2" -R -d siw0 -s "$3" -n "$4" -F "$1" > /tmp/pt-c.log 2>&1 < /dev/null
  crc=$?
  t1=$(date +%s.%N)
  wait $sp
  src=$?
  echo "n=$4 client rc=$crc server rc=$src seconds=$(elapsed "$t0" "$t1")"
  grep -A1 '#bytes' /tmp/pt-c.log | tail -1
  [ $crc = 0 ] && [ $src = 0 ]
}

# rping_rate ADDR SIZE ROUNDS : siw<->siw rping here, 20 rounds then ROUNDS (wall clock of each)
rping_rate() { rping_once "$1" "$2" 20; rping_once "$1" "$2" "$3"; }
rping_once() {
  timeout 120 rping -s -a "$1" -C "$3" -S "$2" > /tmp/gr-s.log 2>&1 < /dev/null &
  sp=$!
  listening 7174 100 0.05 || true
  t0=$(date +%s.%N)
  timeout 120 rping -c -a "$1" -C "$3" -S "$2" > /tmp/gr-c.log 2>&1 < /dev/null
  rc=$?
  t1=$(date +%s.%N)
  wait $sp
  echo "n=$3 seconds=$(elapsed "$t0" "$t1") rc=$rc"
}

#!/usr/bin/env bash
# soak.sh: the soak with faults (issue 13, docs/reliability.md).
#
#   scripts/soak.sh [--minutes N] [--queue-pairs N] [--seed S] [--keep DIR]
#
# Two JVMs in two network namespaces joined by a veth pair (10.213.9.1/30 and .2/30, MTU 1500): `iwarp soak
# server` in one, `iwarp soak client` in the other for N minutes (default 2), every operation on several queue
# pairs with random sizes, every octet checked. Meanwhile, every 5 to 15 s, one fault, each kind once in every
# round of four, in a random order (the first round begins with the client's): the server is killed (SIGKILL)
# and started again; the client is killed and started again for the rest of the run (only while half the run
# or 45 s remain, so that the last client runs long enough to judge its memory; later its turn kills the
# server); packets are dropped (iptables statistic, 1 to 5 % each way for 5 to 15 s); or the connections are
# reset (iptables REJECT --reject-with tcp-reset for half a second); the client also resets its own
# connections now and then. A killed client's figures count up to its last progress line (every 5 s). --seed
# seeds the client's workload and the faults' schedule. Netty's leak detector runs at PARANOID in both JVMs.
# Needs root, iproute2 and iptables. SOAK_CLASSPATH: run the JVMs from this class path (the tests do), else
# from tools/target/iwarp.jar, built as ./iwarp builds it.
# Prints the client's report, the server's and the faults' figures, and "soak: PASS" or "soak: FAIL (why)".
# Exit status: 0 pass; 1 a corruption, a leak, a hang, an unexpected error or growing memory; 2 cannot run here.
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
minutes=2; qps=4; seed=""; keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --queue-pairs) qps=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) sed -n '2,17p' "$0" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "soak: SKIPPED: not root (ip netns and iptables need it)" >&2; exit 2; }
command -v ip >/dev/null || { echo "soak: SKIPPED: iproute2 (ip) is not installed" >&2; exit 2; }
command -v iptables >/dev/null || { echo "soak: SKIPPED: iptables is not installed" >&2; exit 2; }
if [ -n "${SOAK_CLASSPATH:-}" ]; then
  cp=$SOAK_CLASSPATH
else
  "$root/iwarp" --version >/dev/null || exit 2 # builds the jar when stale
  cp=$root/tools/target/iwarp.jar
fi
java=${JAVA:-java}
id=$$
ns_s=iwsoak-srv-$id; ns_c=iwsoak-cli-$id; veth_s=iwss$id; veth_c=iwsc$id
srv_ip=10.213.9.1; cli_ip=10.213.9.2; port=7480
work=${keep:-$(mktemp -d)}; mkdir -p "$work"
server_pid=""; client_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null
  [ -n "$client_pid" ] && kill -9 "$client_pid" 2>/dev/null
  ip netns del "$ns_s" 2>/dev/null; ip netns del "$ns_c" 2>/dev/null
  [ -z "$keep" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns del "$ns_s" 2>/dev/null; ip netns del "$ns_c" 2>/dev/null
ip netns add "$ns_s" || { echo "soak: SKIPPED: cannot create a network namespace here" >&2; exit 2; }
ip netns add "$ns_c"
ip link add "$veth_s" type veth peer name "$veth_c"
ip link set "$veth_s" netns "$ns_s"; ip link set "$veth_c" netns "$ns_c"
ip -n "$ns_s" addr add $srv_ip/30 dev "$veth_s"; ip -n "$ns_c" addr add $cli_ip/30 dev "$veth_c"
for nd in "$ns_s $veth_s" "$ns_c $veth_c"; do
  set -- $nd
  ip -n "$1" link set lo up
  # No GSO: a dropped packet is one 1500-octet segment, as on a real link.
  ip -n "$1" link set "$2" mtu 1500 gso_max_segs 1 gso_max_size 1500 up
done
jvm=("$java" -Dio.netty.leakDetection.level=PARANOID -XX:+UseSerialGC)

incarnation=0
start_server() {
  incarnation=$((incarnation + 1))
  ip netns exec "$ns_s" "${jvm[@]}" -Xms256m -Xmx256m -XX:MaxDirectMemorySize=512m -cp "$cp" \
    org.iwarp4j.tools.IwarpCommand soak server -a $srv_ip -p $port \
    > "$work/server-$incarnation.out" 2> "$work/server-$incarnation.err" &
  server_pid=$!
  for _ in $(seq 1 300); do
    grep -q "listening on" "$work/server-$incarnation.out" 2>/dev/null && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "soak: the server did not start:" >&2; cat "$work/server-$incarnation".{out,err} >&2
  return 1
}
start_server || exit 1
seed_args=(); [ -n "$seed" ] && seed_args=(--seed "$seed")
began=$(date +%s)
run_seconds=$(awk -v m="$minutes" 'BEGIN {printf "%d", m * 60}')
clients=0
# start_client SECONDS: the client's next incarnation, for the rest of the run
start_client() {
  clients=$((clients + 1))
  local m; m=$(awk -v s="$1" 'BEGIN {printf "%.4f", s / 60}')
  ip netns exec "$ns_c" "${jvm[@]}" -Xms384m -Xmx384m -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=512m -cp "$cp" \
    org.iwarp4j.tools.IwarpCommand soak client -a $srv_ip -p $port --minutes "$m" --queue-pairs "$qps" \
    "${seed_args[@]}" > "$work/client-$clients.out" 2> "$work/client-$clients.err" &
  client_pid=$!
}
start_client "$run_seconds"
echo "soak: ${minutes} min, $qps queue pairs, work in $work"

kills=0; server_kills=0; client_kills=0; drops=0; resets=0; dropped=0; rejected=0
limit=$(awk -v m="$minutes" 'BEGIN {printf "%d", m * 60 + 300}')
alive() { kill -0 "$client_pid" 2>/dev/null; }
pause() { # sleeps $1 seconds, or less if the client has ended
  local until=$(( $(date +%s) + $1 ))
  while alive && [ "$(date +%s)" -lt "$until" ]; do sleep 0.2; done
}
hung=false; fault_errors=0
[ -n "$seed" ] && RANDOM=$seed
# shuffled KIND...: the kinds in a random order
shuffled() { local a=("$@") i j t; for ((i = ${#a[@]} - 1; i > 0; i--)); do j=$((RANDOM % (i + 1)));
  t=${a[i]}; a[i]=${a[j]}; a[j]=$t; done; echo "${a[@]}"; }
order=(3 $(shuffled 0 1 2)) # the first round begins with the client's kill, while the whole run remains
# A fault command that fails is a failure of the run, not a silent no-op.
must() { "$@" || { echo "soak: fault command failed: $*" >&2; fault_errors=$((fault_errors + 1)); }; }
while alive; do
  pause $((5 + RANDOM % 11))
  alive || break
  if [ $(( $(date +%s) - began )) -gt "$limit" ]; then hung=true; break; fi
  # Each round of four faults has each kind once, in a random order.
  [ ${#order[@]} -eq 0 ] && order=($(shuffled 0 1 2 3))
  kind=${order[0]}; order=("${order[@]:1}")
  left=$(( run_seconds - ($(date +%s) - began) ))
  # the last client must run long enough to judge its memory: half the run, at least 45 s
  [ "$kind" = 3 ] && { [ $((2 * left)) -lt "$run_seconds" ] || [ "$left" -lt 45 ]; } && kind=0
  case $kind in
    0)
      kills=$((kills + 1)); server_kills=$((server_kills + 1))
      echo "soak: fault $((kills + drops + resets)): SIGKILL the server"
      kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null
      pause $((1 + RANDOM % 3))
      start_server || exit 1 ;;
    3)
      # a client killed before it reported any work would test nothing: wait (<= 30 s) for a progress line
      for _ in $(seq 1 150); do
        grep '^soak client: [0-9.]* min' "$work/client-$clients.out" 2>/dev/null | tail -1 \
          | awk '$5 > 0 {found = 1} END {exit !found}' && break
        alive || break
        sleep 0.2
      done
      alive || break
      left=$(( run_seconds - ($(date +%s) - began) ))
      kills=$((kills + 1)); client_kills=$((client_kills + 1))
      echo "soak: fault $((kills + drops + resets)): SIGKILL the client, then a new one for the last $left s"
      kill -9 "$client_pid"; wait "$client_pid" 2>/dev/null
      sleep $((1 + RANDOM % 3))
      start_client $(( run_seconds - ($(date +%s) - began) )) ;;
    1)
      p=$(( 1 + RANDOM % 5 )); d=$((5 + RANDOM % 11)); drops=$((drops + 1))
      echo "soak: fault $((kills + drops + resets)): drop $p % of the packets each way for $d s"
      for ns in "$ns_s" "$ns_c"; do
        must ip netns exec "$ns" iptables -A INPUT -m statistic --mode random --probability "0.0$p" -j DROP
      done
      pause "$d"
      for ns in "$ns_s" "$ns_c"; do
        n=$(ip netns exec "$ns" iptables -L INPUT -v -n -x | awk '$3 == "DROP" {s += $1} END {print s + 0}')
        dropped=$((dropped + n))
        must ip netns exec "$ns" iptables -F INPUT
      done ;;
    2)
      resets=$((resets + 1)); echo "soak: fault $((kills + drops + resets)): reset the connections (tcp-reset)"
      must ip netns exec "$ns_s" iptables -A INPUT -p tcp --dport $port -j REJECT --reject-with tcp-reset
      sleep 0.5
      n=$(ip netns exec "$ns_s" iptables -L INPUT -v -n -x | awk '$3 == "REJECT" {s += $1} END {print s + 0}')
      rejected=$((rejected + n))
      must ip netns exec "$ns_s" iptables -F INPUT ;;
  esac
done
if $hung || alive; then
  echo "soak: the client did not end within $limit s: a hang" >&2
  kill -3 "$client_pid" 2>/dev/null; sleep 1 # a thread dump into the client's .out
  hung=true
fi
wait "$client_pid"; client_rc=$?
client_pid=""
kill -9 "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; server_pid=""

grep -v '^soak client: [0-9.]* min' "$work/client-$clients.out" | grep -v '^soak: verdict'
grep -h '^CORRUPTION\|^UNEXPECTED\|^HANG' "$work"/server-*.out "$work"/client-*.out "$work"/client-*.err 2>/dev/null \
  | head -20
leaks=$(cat "$work"/server-*.err "$work"/client-*.err | grep -c 'LEAK:')
# The killed clients: their last progress line ("soak client: M min, N operations, O octets verified, C corruptions")
killed_ops=0; killed_octets=0; client_corruptions=0
for ((k = 1; k < clients; k++)); do
  line=$(grep '^soak client: [0-9.]* min' "$work/client-$k.out" | tail -1)
  killed_ops=$((killed_ops + $(echo "$line" | awk '{print $5 + 0}')))
  killed_octets=$((killed_octets + $(echo "$line" | awk '{print $7 + 0}')))
  client_corruptions=$((client_corruptions + $(grep -c '^CORRUPTION' "$work/client-$k.out")))
done
server_corruptions=$(cat "$work"/server-*.out | grep -c '^CORRUPTION')
server_messages=0; server_octets=0
for f in "$work"/server-*.out; do
  line=$(grep '^soak server: total' "$f" | tail -1)
  [ -z "$line" ] && continue
  server_messages=$((server_messages + $(echo "$line" | awk '{print $4}')))
  server_octets=$((server_octets + $(echo "$line" | awk '{print $6}')))
done
errors=$(cat "$work"/server-*.err "$work"/client-*.err | grep -c 'ERROR\|Exception in thread')
echo "soak: server_incarnations $incarnation, checked at least $server_messages messages and $server_octets octets" \
  "(the last 10-s total of each), corruptions $server_corruptions"
echo "soak: client_incarnations $clients, the killed ones checked at least $killed_ops operations and" \
  "$killed_octets octets (to their last progress line), corruptions $client_corruptions"
echo "soak: faults $((kills + drops + resets)): $kills SIGKILL and restart ($server_kills of the server," \
  "$client_kills of the client), $drops drop phases ($dropped packets dropped), $resets tcp-reset phases" \
  "($rejected packets answered with a reset)"
echo "soak: leaks $leaks"
echo "soak: error_log_lines $errors"
why=()
[ "$client_rc" -ne 0 ] && why+=("client exit $client_rc")
[ "$server_corruptions" -ne 0 ] && why+=("$server_corruptions server corruptions")
[ "$client_corruptions" -ne 0 ] && why+=("$client_corruptions corruptions seen by killed clients")
[ "$leaks" -ne 0 ] && why+=("$leaks leaks")
$hung && why+=("hang")
[ "$fault_errors" -ne 0 ] && why+=("$fault_errors fault commands failed")
if [ ${#why[@]} -eq 0 ]; then echo "soak: PASS"; exit 0; fi
echo "soak: FAIL (${why[*]})"
[ -z "$keep" ] && { echo "--- client-$clients.err (tail)"; tail -30 "$work/client-$clients.err"; }
exit 1

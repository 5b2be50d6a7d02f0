#!/usr/bin/env bash
# soak.sh: the soak with faults (issue 13, docs/reliability.md).
#
#   scripts/soak.sh [--minutes N] [--queue-pairs N] [--seed S] [--keep DIR]
#
# Two JVMs in two network namespaces joined by a veth pair (10.213.9.1/30 and .2/30, MTU 1500): `iwarp soak
# server` in one, `iwarp soak client` in the other for N minutes (default 2), every operation on several queue
# pairs with random sizes, every octet checked. Meanwhile, every 5 to 15 s, one fault, each kind once in every
# round of three, in a random order: the server is killed (SIGKILL) and started again, packets are dropped
# (iptables statistic, 1 to 5 % each way for 5 to 15 s), or the connections are reset (iptables REJECT
# --reject-with tcp-reset for half a second); the client also resets its own connections now and then. --seed
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
ip netns exec "$ns_c" "${jvm[@]}" -Xms384m -Xmx384m -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=512m -cp "$cp" \
  org.iwarp4j.tools.IwarpCommand soak client -a $srv_ip -p $port --minutes "$minutes" --queue-pairs "$qps" \
  "${seed_args[@]}" > "$work/client.out" 2> "$work/client.err" &
client_pid=$!
echo "soak: ${minutes} min, $qps queue pairs, work in $work"

kills=0; drops=0; resets=0; dropped=0; rejected=0
limit=$(awk -v m="$minutes" 'BEGIN {printf "%d", m * 60 + 300}')
began=$(date +%s)
alive() { kill -0 "$client_pid" 2>/dev/null; }
pause() { # sleeps $1 seconds, or less if the client has ended
  local until=$(( $(date +%s) + $1 ))
  while alive && [ "$(date +%s)" -lt "$until" ]; do sleep 0.2; done
}
hung=false; fault_errors=0; order=(); perms=("0 1 2" "0 2 1" "1 0 2" "1 2 0" "2 0 1" "2 1 0")
[ -n "$seed" ] && RANDOM=$seed
# A fault command that fails is a failure of the run, not a silent no-op.
must() { "$@" || { echo "soak: fault command failed: $*" >&2; fault_errors=$((fault_errors + 1)); }; }
while alive; do
  pause $((5 + RANDOM % 11))
  alive || break
  if [ $(( $(date +%s) - began )) -gt "$limit" ]; then hung=true; break; fi
  # Each round of three faults has each kind once, in a random order.
  [ ${#order[@]} -eq 0 ] && order=(${perms[RANDOM % 6]})
  kind=${order[0]}; order=("${order[@]:1}")
  case $kind in
    0)
      kills=$((kills + 1)); echo "soak: fault $((kills + drops + resets)): SIGKILL the server"
      kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null
      pause $((1 + RANDOM % 3))
      start_server || exit 1 ;;
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
  kill -3 "$client_pid" 2>/dev/null; sleep 1 # a thread dump into client.out
  hung=true
fi
wait "$client_pid"; client_rc=$?
client_pid=""
kill -9 "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; server_pid=""

cat "$work/client.out" | grep -v '^soak client: [0-9.]* min' | grep -v '^soak: verdict'
grep -h '^CORRUPTION\|^UNEXPECTED\|^HANG' "$work"/server-*.out "$work/client.err" 2>/dev/null | head -20
leaks=$(cat "$work"/server-*.err "$work/client.err" | grep -c 'LEAK:')
server_corruptions=$(cat "$work"/server-*.out | grep -c '^CORRUPTION')
server_messages=0; server_octets=0
for f in "$work"/server-*.out; do
  line=$(grep '^soak server: total' "$f" | tail -1)
  [ -z "$line" ] && continue
  server_messages=$((server_messages + $(echo "$line" | awk '{print $4}')))
  server_octets=$((server_octets + $(echo "$line" | awk '{print $6}')))
done
errors=$(cat "$work"/server-*.err "$work/client.err" | grep -c 'ERROR\|Exception in thread')
echo "soak: server_incarnations $incarnation, checked at least $server_messages messages and $server_octets octets" \
  "(the last 10-s total of each), corruptions $server_corruptions"
echo "soak: faults $((kills + drops + resets)): $kills SIGKILL and restart, $drops drop phases ($dropped packets" \
  "dropped), $resets tcp-reset phases ($rejected packets answered with a reset)"
echo "soak: leaks $leaks"
echo "soak: error_log_lines $errors"
why=()
[ "$client_rc" -ne 0 ] && why+=("client exit $client_rc")
[ "$server_corruptions" -ne 0 ] && why+=("$server_corruptions server corruptions")
[ "$leaks" -ne 0 ] && why+=("$leaks leaks")
$hung && why+=("hang")
[ "$fault_errors" -ne 0 ] && why+=("$fault_errors fault commands failed")
if [ ${#why[@]} -eq 0 ]; then echo "soak: PASS"; exit 0; fi
echo "soak: FAIL (${why[*]})"
[ -z "$keep" ] && { echo "--- client.err (tail)"; tail -30 "$work/client.err"; }
exit 1

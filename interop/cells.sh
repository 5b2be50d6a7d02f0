# shellcheck shell=bash
# Cells of the siw interop matrix, sourced by run-matrix.sh (which runs each cell in its own
# process, inside the lab's network namespace, under a timeout).
#
# A cell is a shell function cell_<name> registered with
#     cell NAME GROUP TIMEOUT_SECONDS "what it checks"
# It returns 0 (pass), 1 (fail) or 77 (not run: a prerequisite such as ./iwarp is missing).
# It writes a one-line result with `detail ...`; run-matrix.sh collects the capture
# ($CDIR/$CELL.pcap), the probe log and JSON summary, the guest tools' output and a decode of the
# capture into $CDIR/$CELL.txt.
#
# Expected outcomes encode what siw 6.1 (Debian 6.1.x, siw.ko built by build.sh) actually does,
# as established in FINDINGS.md: a failing siw-only cell means siw's behaviour (or the lab) changed.

NOT_RUN=77
GIP=${SIWLAB_GUEST_IP:-10.77.0.2}
HIP=${SIWLAB_HOST_IP:-10.77.0.1}

# ------------------------------------------------------------------------------------ helpers
G() { bash "$HERE/guest.sh" "$@"; }
detail() { echo "$*" > "$CDIR/$CELL.detail"; }
note() { echo "$*" >> "$CDIR/$CELL.notes"; }

# gstart TAG SECS CMD... : run CMD in the guest in the background (own session), bounded by SECS.
# Output in guest:/tmp/TAG.log, exit status in /tmp/TAG.rc, session leader pid in /tmp/TAG.pid.
gstart() {
  local tag=$1 t=$2; shift 2
  echo "$tag: $*" >> "$CDIR/$CELL.gtags"
  G "rm -f /tmp/$tag.rc /tmp/$tag.log /tmp/$tag.pid; setsid sh -c 'timeout --foreground -k 2 $t $*; echo \$? > /tmp/$tag.rc' > /tmp/$tag.log 2>&1 < /dev/null & echo \$! > /tmp/$tag.pid"
}
# gwait TAG SECS : wait until the guest program ended; prints its exit status ("none" on timeout)
gwait() {
  G "for i in \$(seq $(( $2 * 10 ))); do [ -s /tmp/$1.rc ] && break; sleep 0.1; done; cat /tmp/$1.rc 2>/dev/null || echo none"
}
# gstop TAG : end the guest program (its whole session, by the recorded pid)
gstop() { G "p=\$(cat /tmp/$1.pid 2>/dev/null); [ -n \"\$p\" ] && kill -TERM -- -\$p 2>/dev/null; true"; }
glog() { G "cat /tmp/$1.log 2>/dev/null"; }
# gwait_listen PORT : wait (<= 10 s) until something listens on PORT in the guest (siw's listener shows in ss)
gwait_listen() { G "for i in \$(seq 100); do ss -Hltn '( sport = :$1 )' | grep -q . && exit 0; sleep 0.1; done; exit 1"; }

# siwparam NAME=VALUE... : set siw module parameters (the lab's patched siw.ko)
siwparam() {   # returns NOT_RUN when siw has no such parameter (a stock siw.ko: real siw hosts)
  local kv
  for kv in "$@"; do
    G "[ -w /sys/module/siw/parameters/${kv%%=*} ]" || { detail "needs the siw module parameter ${kv%%=*} (the lab's patched siw.ko)"; return $NOT_RUN; }
    G "echo ${kv#*=} > /sys/module/siw/parameters/${kv%%=*}" || return 1
    echo "siw parameter ${kv%%=*}=${kv#*=}" >> "$CDIR/$CELL.notes"
  done
}
reset_params() {
  G 'cd /sys/module/siw/parameters && echo N > mpa_crc_required && echo N > mpa_crc_strict && echo N > peer_to_peer && echo 2 > mpa_version && echo N > try_gso && { [ ! -e siwlab_accept_race_ms ] || echo 0 > siwlab_accept_race_ms; }' 2>/dev/null || true
}

TDPID=""
cap_start() {   # cap_start FILTER : tcpdump on the tap (or SIWLAB_CAPTURE_IF) into $CDIR/$CELL.pcap
  local ifc=${SIWLAB_CAPTURE_IF:-}
  [ "${SIWLAB_NET:-tap}" = tap ] && ifc=${SIWLAB_CAPTURE_IF:-$SIWLAB_TAP}
  [ -n "$ifc" ] || return 0
  # high priority: on 2 cores the TCG guest and a JVM starve it, and packets it has not read when it is
  # stopped are lost ("received by filter" but not "captured")
  nice -n -15 tcpdump -Z root -i "$ifc" -s 0 -B 8192 -U -w "$CDIR/$CELL.pcap" "$1" > "$CDIR/$CELL.tcpdump.log" 2>&1 &
  TDPID=$!
  local i
  for i in $(seq 50); do grep -q 'listening on' "$CDIR/$CELL.tcpdump.log" 2>/dev/null && break; sleep 0.1; done
}
cap_stop() {
  [ -n "$TDPID" ] || return 0
  # Let tcpdump drain what the kernel queued for it before stopping it (a stopped tcpdump drops what it
  # has not read yet): SIGUSR1 makes it print "N packets captured, M packets received by filter"; wait
  # (<= 10 s) until N = M.
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

# probe ARGS... : iwarp_probe.py with the cell's JSON summary and log
probe() {
  timeout -k 5 "${PROBE_TIMEOUT:-60}" python3 "$HERE/iwarp_probe.py" "$@" --json "$CDIR/$CELL.json" \
    >> "$CDIR/$CELL.probe.log" 2>&1
}
# jget KEY : a value from the probe's flattened JSON summary ("none" if absent)
jget() {
  python3 - "$CDIR/$CELL.json" "$1" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("none"); sys.exit()
v = d
for k in sys.argv[2].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("none" if v is None else v)
EOF
}

# secs_until_close MARKER : seconds from the first probe log line containing MARKER to the peer's close
secs_until_close() {
  python3 - "$CDIR/$CELL.json" "$1" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1])); t0 = None
for l in d["log"]:
    m = re.match(r"\[\s*([\d.]+)\] (.*)", l)
    if m and sys.argv[2] in m.group(2) and t0 is None: t0 = float(m.group(1))
    if m and "RX:" in m.group(2): print("%.1f" % (float(m.group(1)) - (t0 or 0))); break
EOF
}

# vs_server TAG PORT "GUEST SERVER CMD" PROBE_ARGS... : probe connects to a server in the guest
vs_server() {
  local tag=$1 port=$2 scmd=$3 rc; shift 3
  gstart "$tag" "${GSECS:-40}" "$scmd"
  gwait_listen "$port" || { note "guest server did not start listening on $port"; gstop "$tag"; return 1; }
  cap_start "tcp port $port"
  # --settle: see the siw accept race in FINDINGS.md (cell mpa-rep-accept-race shows it)
  probe connect "$GIP" "$port" --settle "${SETTLE:-0.3}" "$@"; rc=$?
  cap_stop
  [ "$(gwait "$tag" "${GWAIT:-1}")" = none ] && gstop "$tag"
  return $rc
}
# vs_client TAG PORT "GUEST CLIENT CMD" PROBE_ARGS... : a client in the guest connects to the probe
vs_client() {
  local tag=$1 port=$2 ccmd=$3 rc i pp; shift 3
  cap_start "tcp port $port"
  rm -f "$CDIR/$CELL.ready"
  probe listen "$HIP" "$port" --timeout 20 --ready-file "$CDIR/$CELL.ready" "$@" & pp=$!
  for i in $(seq 50); do [ -f "$CDIR/$CELL.ready" ] && break; sleep 0.1; done
  gstart "$tag" "${GSECS:-40}" "$ccmd"
  wait "$pp"; rc=$?
  [ "$(gwait "$tag" "${GWAIT:-2}")" = none ] && gstop "$tag"
  cap_stop
  return $rc
}
grc_is() { [ "$(gwait "$1" 1)" = "$2" ]; }   # grc_is TAG RC : the guest program exited with RC

RPING_S="rping -s -a $GIP -C 1 -S 64 -v"
RPING_C="rping -c -a $HIP -C 1 -S 64 -v -V"

# term_detail : one line describing the Terminate the probe received
term_detail() {
  local t
  t=$(jget term)
  if [ "$t" = none ]; then
    echo "no Terminate; close=$(jget close)"
  else
    echo "TERM $t M=$(jget term_m) D=$(jget term_d) R=$(jget term_r) layout=$(jget term_layout) ctrl=$(jget term_detail.ctrl_hex) seglen=$(jget term_detail.ddp_segment_length); close=$(jget close)"
  fi
}

# ==================================================================================== sanity (siw only)
guest_rping_pair() {   # both ends in the guest, over siw0 (10.77.0.2 -> itself, i.e. through lo)
  G "timeout 40 rping -s -a $GIP -C $1 -S $2 -v > /tmp/gp-s.log 2>&1 < /dev/null & SP=\$!
     for i in \$(seq 100); do ss -Hltn '( sport = :7174 )' | grep -q . && break; sleep 0.1; done
     timeout 40 rping -c -a $GIP -C $1 -S $2 -v -V > /tmp/gp-c.log 2>&1 < /dev/null; CRC=\$?
     wait \$SP; SRC=\$?; echo client rc=\$CRC server rc=\$SRC; tail -2 /tmp/gp-c.log
     [ \$CRC = 0 ] && [ \$SRC = 0 ]" > "$CDIR/$CELL.guest.txt" 2>&1
}
cell siw-rping-guest sanity 60 "siw<->siw rping inside the guest (-C 10 -S 64 -V), CRC off"
cell_siw_rping_guest() { guest_rping_pair 10 64; local rc=$?; detail "$(head -1 "$CDIR/$CELL.guest.txt")"; return $rc; }
cell siw-rping-guest-crc sanity 60 "siw<->siw rping inside the guest with mpa_crc_required=Y"
cell_siw_rping_guest_crc() { siwparam mpa_crc_required=Y || return $?; guest_rping_pair 10 64; local rc=$?; detail "$(head -1 "$CDIR/$CELL.guest.txt")"; return $rc; }

perftest_pair() {   # perftest_pair TOOL : -R (rdma_cm) server and client in the guest, 64 KiB messages
  # perftest's own BW figure relies on TSC calibration, which fails under TCG ("Correlation
  # coefficient r^2 < 0.9" -> 0.00 MB/s), so the figure is also taken from the wall clock: two runs
  # (-n 50 and -n 1050) and (1000 x 64 KiB) / (t_1050 - t_50), which cancels connection setup.
  G "one() {
       timeout 60 $1 -R -d siw0 -s 65536 -n \$1 -F > /tmp/pt-s.log 2>&1 < /dev/null & SP=\$!
       for i in \$(seq 100); do ss -Hltn '( sport = :18515 )' | grep -q . && break; sleep 0.05; done
       T0=\$(date +%s.%N)
       timeout 60 $1 -R -d siw0 -s 65536 -n \$1 -F $GIP > /tmp/pt-c.log 2>&1 < /dev/null; CRC=\$?
       T1=\$(date +%s.%N); wait \$SP; SRC=\$?
       echo \"n=\$1 client rc=\$CRC server rc=\$SRC seconds=\$(echo \"\$T1 - \$T0\" | bc -l 2>/dev/null || awk \"BEGIN{print \$T1-\$T0}\")\"
       grep -A1 '#bytes' /tmp/pt-c.log | tail -1
       [ \$CRC = 0 ] && [ \$SRC = 0 ]
     }
     one 50 && one 1050" > "$CDIR/$CELL.guest.txt" 2>&1
  local rc=$?
  local line
  line=$(awk '/^n=50 /{for(i=1;i<=NF;i++) if($i ~ /^seconds=/){split($i,a,"="); t1=a[2]}}
              /^n=1050 /{for(i=1;i<=NF;i++) if($i ~ /^seconds=/){split($i,a,"="); t2=a[2]}}
              $1 == 65536 {pt=$4}
              END { if (t2 > t1) printf "%.0f MB/s (wall clock, 1000 x 64 KiB in %.2f s); perftest itself printed %s MB/s", 1000*65536/1e6/(t2-t1), t2-t1, pt; else print "?" }' "$CDIR/$CELL.guest.txt")
  detail "$1 -R -s 65536, siw<->siw in the guest (TCG): $line"
  [ $rc = 0 ]
}
cell siw-perftest-write sanity 90 "reference figure: ib_write_bw -R inside the guest"
cell_siw_perftest_write() { perftest_pair ib_write_bw; }
cell siw-perftest-read sanity 90 "reference figure: ib_read_bw -R inside the guest"
cell_siw_perftest_read() { perftest_pair ib_read_bw; }
cell siw-perftest-send sanity 90 "reference figure: ib_send_bw -R inside the guest"
cell_siw_perftest_send() { perftest_pair ib_send_bw; }

cell tcp-host-to-guest sanity 30 "plain TCP host -> guest over the tap (nc)"
cell_tcp_host_to_guest() {
  gstart nc 20 "nc -l $GIP 5000"
  G "for i in \$(seq 50); do ss -Hltn '( sport = :5000 )' | grep -q . && exit 0; sleep 0.1; done; exit 1" || return 1
  echo hello-from-host | timeout 10 nc -N "$GIP" 5000 || return 1
  gwait nc 5 >/dev/null
  [ "$(glog nc)" = hello-from-host ] && detail "ok"
}
cell tcp-guest-to-host sanity 30 "plain TCP guest -> host over the tap (nc)"
cell_tcp_guest_to_host() {
  local pid got
  timeout 20 nc -l "$HIP" 5001 > "$CDIR/$CELL.nc" 2>/dev/null & pid=$!
  sleep 0.5
  G "echo hello-from-guest | timeout 10 nc -N $HIP 5001" || { kill "$pid" 2>/dev/null; return 1; }
  wait "$pid"
  got=$(cat "$CDIR/$CELL.nc"); rm -f "$CDIR/$CELL.nc"
  [ "$got" = hello-from-guest ] && detail "ok"
}

# ==================================================================================== probe <-> siw
cell probe-rping-client probe 60 "probe as rping client -> rping -s (3 pings, verified), CRC off"
cell_probe_rping_client() {
  vs_server rs 7174 "rping -s -a $GIP -C 3 -S 64 -v" --ird 1 --ord 1 \
    --do rping-client:count=3,size=64 --expect mpa=accept --expect rping=ok --expect term=none || return 1
  detail "reply $(jget reply.hex); rx $(jget rx_ops)"
  grc_is rs 0 || { note "rping -s did not exit 0"; return 1; }
}
cell probe-rping-client-crc probe 60 "probe as rping client -> rping -s with C=1 (CRC32c both ways)"
cell_probe_rping_client_crc() {
  vs_server rs 7174 "rping -s -a $GIP -C 3 -S 64 -v" --crc on --ird 1 --ord 1 \
    --do rping-client:count=3,size=64 --expect reply.c=1 --expect rping=ok --expect rx_crc_bad=0 --expect term=none || return 1
  detail "reply $(jget reply.hex); all $(jget rx_count) siw FPDUs carry a valid CRC32c"
  grc_is rs 0
}
cell probe-rping-server probe 60 "rping -c (3 pings, -V) -> probe as rping server, CRC off"
cell_probe_rping_server() {
  vs_client rc 7174 "rping -c -a $HIP -C 3 -S 64 -v -V" --do rping-server:count=3 \
    --expect mpa=request --expect rping=ok --expect term=none || return 1
  detail "request $(jget request.hex); rping -c exit $(gwait rc 1)"
  grc_is rc 0
}
cell probe-rping-server-crc probe 60 "rping -c with mpa_crc_required=Y -> probe as rping server"
cell_probe_rping_server_crc() {
  siwparam mpa_crc_required=Y || return $?
  vs_client rc 7174 "rping -c -a $HIP -C 3 -S 64 -v -V" --do rping-server:count=3 \
    --expect request.c=1 --expect reply.c=1 --expect rping=ok --expect rx_crc_bad=0 || return 1
  detail "request $(jget request.hex); siw FPDUs all CRC-valid; rping -c exit $(gwait rc 1)"
  grc_is rc 0
}
fpdu_sizes() {   # one line: the ULPDU_Length of each FPDU siw sent, from the JSON summary
  python3 - "$CDIR/$CELL.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%d" % (f["op"], int(f["hex"][:4], 16)) for f in d.get("rx_fpdus", [])))
EOF
}
for s in 26 27 29; do
  cell "fpdu-pad-s$s" fpdu 60 "rping -s -S $s -> probe client: siw's short Writes/Read Responses carry pad bytes (contents?)"
done
pad_cell() {
  vs_server rs 7174 "rping -s -a $GIP -C 2 -S $1 -v" --ird 1 --ord 1 \
    --do rping-client:count=2,size="$1" --expect rping=ok || return 1
  detail "pad bytes seen in siw FPDUs: $(python3 - "$CDIR/$CELL.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
out = []
for f in d.get("rx_fpdus", []):
    h = bytes.fromhex(f["hex"]); n = int.from_bytes(h[:2], "big"); pad = (-(2 + n)) % 4
    if pad:
        out.append("%s(len %d) pad=%s" % (f["op"], n, h[2 + n:2 + n + pad].hex()))
print("; ".join(out) or "none")
EOF
)"
}
cell_fpdu_pad_s26() { pad_cell 26; }
cell_fpdu_pad_s27() { pad_cell 27; }
cell_fpdu_pad_s29() { pad_cell 29; }
cell fpdu-mss-write-4096 fpdu 60 "rping -s -S 4096 -> probe client: siw segments its 4096-byte RDMA Write per MSS"
cell_fpdu_mss_write_4096() {
  vs_server rs 7174 "rping -s -a $GIP -C 1 -S 4096 -v" --ird 1 --ord 1 \
    --do rping-client:count=1,size=4096 --expect rping=ok || return 1
  detail "siw FPDUs (op:ULPDU_Length): $(fpdu_sizes)"
}
cell fpdu-mss-rresp-4096 fpdu 60 "rping -c -S 4096 -> probe server: siw segments its 4096-byte Read Response per MSS"
cell_fpdu_mss_rresp_4096() {
  vs_client rc 7174 "rping -c -a $HIP -C 1 -S 4096 -v -V" --do rping-server:count=1 --expect rping=ok || return 1
  detail "siw FPDUs (op:ULPDU_Length): $(fpdu_sizes)"
  grc_is rc 0
}
cell fpdu-crc-off-ignored fpdu 60 "CRC not negotiated: every FPDU we send has a WRONG CRC field; siw must ignore it"
cell_fpdu_crc_off_ignored() {
  vs_server rs 7174 "rping -s -a $GIP -C 2 -S 64 -v" --ird 1 --ord 1 --tx-crc bad \
    --do rping-client:count=2,size=64 --expect rping=ok --expect term=none || return 1
  detail "siw ignored the CRC field (2 pings ok); siw's own CRC fields: $(python3 - "$CDIR/$CELL.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(",".join(sorted({f["hex"][-8:] for f in d.get("rx_fpdus", [])})))
EOF
)"
}

# ==================================================================================== MPA: siw as Responder
# probe = Initiator against rping -s; checks siw's Reply in each variant
mpa_rep() {   # mpa_rep EXPECTED_MPA PROBE_ARGS...
  local want=$1; shift
  vs_server rs 7174 "$RPING_S" "$@" --linger 0.5 --expect mpa="$want"
}
rep_detail() { detail "reply $(jget reply.hex) (mpa=$(jget mpa), close=$(jget close)) $*"; }

cell mpa-rep-default mpa-responder 40 "our Rev2/S/IRD=ORD=16 Request -> siw Reply echoes flags, IRD/ORD as granted"
cell_mpa_rep_default() { mpa_rep accept --ird 16 --ord 16 --expect reply.rev=2 --expect reply.s=1 --expect reply.c=0 || return 1; rep_detail; }
cell mpa-rep-res-bits mpa-responder 40 "reserved bits 0x0F (incl. siw's GSO bit 0x08) set in our Request -> echoed in siw's Reply?"
cell_mpa_rep_res_bits() { mpa_rep accept --res 0x0f --ird 1 --ord 1 --do rping-client:count=1 --expect rping=ok || return 1; rep_detail "reply byte16 res=0x$(printf %x "$(jget reply.res)")"; }
cell mpa-rep-crc mpa-responder 40 "C=1 in our Request -> siw replies C=1 and CRC is used (1 rping verified)"
cell_mpa_rep_crc() { mpa_rep accept --crc on --ird 1 --ord 1 --do rping-client:count=1 --expect reply.c=1 --expect rping=ok --expect rx_crc_bad=0 || return 1; rep_detail; }
cell mpa-rep-rev1 mpa-responder 40 "Rev 1 Request (no enhanced data) -> siw's Reply and what rping can do then"
cell_mpa_rep_rev1() { mpa_rep accept --rev 1 --do rping-client:count=1,secs=5 --expect reply.rev=1 --expect reply.s=0 || return 1; rep_detail "rping=$(jget rping) term=$(jget term) rx=$(jget rx_ops)"; }
cell mpa-rep-rev2-noenh mpa-responder 40 "Rev 2 Request without the S bit / IRD-ORD block"
cell_mpa_rep_rev2_noenh() { mpa_rep accept --rev 2 --enhanced off --do rping-client:count=1,secs=5 --expect reply.s=0 || return 1; rep_detail "rping=$(jget rping) term=$(jget term)"; }
for v in 0:0 0:1 1:0 3fff:3fff 200:200 5:3; do
  cell "mpa-rep-ird${v%%:*}-ord${v##*:}" mpa-responder 40 "IRD=0x${v%%:*} ORD=0x${v##*:} in our Request -> siw's Reply IRD/ORD"
done
iro_cell() { mpa_rep accept --ird "0x$1" --ord "0x$2" || return 1; rep_detail "reply IRD=$(jget reply.enh.ird) ORD=$(jget reply.enh.ord)"; }
cell_mpa_rep_ird0_ord0() { iro_cell 0 0; }
cell_mpa_rep_ird0_ord1() { iro_cell 0 1; }
cell_mpa_rep_ird1_ord0() { iro_cell 1 0; }
cell_mpa_rep_ird3fff_ord3fff() { iro_cell 3fff 3fff; }
cell_mpa_rep_ird200_ord200() { iro_cell 200 200; }
cell_mpa_rep_ird5_ord3() { iro_cell 5 3; }
for r in none B C D BC BD CD BCD; do
  cell "mpa-rep-p2p-$r" mpa-responder 40 "A=1 offering RTR {$r} -> which RTR siw picks; we send it, then 1 rping"
done
p2p_cell() {   # p2p_cell OFFER EXPECTED_C EXPECTED_D
  local offer=$1; [ "$offer" = none ] && offer=""
  mpa_rep accept --p2p --rtr "$offer" --ird 1 --ord 1 --do rtr:kind=auto --do rping-client:count=1 \
    --expect reply.enh.a=1 --expect reply.enh.b=0 --expect reply.enh.c="$2" --expect reply.enh.d="$3" \
    --expect rping=ok --expect term=none || return 1
  rep_detail "(A=$(jget reply.enh.a) B=$(jget reply.enh.b) C=$(jget reply.enh.c) D=$(jget reply.enh.d)); RTR sent then rping ok"
}
cell_mpa_rep_p2p_none() { p2p_cell none 1 0; }
cell_mpa_rep_p2p_B() { p2p_cell B 1 0; }
cell_mpa_rep_p2p_C() { p2p_cell C 1 0; }
cell_mpa_rep_p2p_D() { p2p_cell D 0 1; }
cell_mpa_rep_p2p_BC() { p2p_cell BC 1 0; }
cell_mpa_rep_p2p_BD() { p2p_cell BD 0 1; }
cell_mpa_rep_p2p_CD() { p2p_cell CD 1 0; }
cell_mpa_rep_p2p_BCD() { p2p_cell BCD 1 0; }
cell mpa-rep-p2p-write-rtr-stag0 mpa-responder 40 "p2p, zero-length Write RTR with STag 0 (RFC 5041: not checked)"
cell_mpa_rep_p2p_write_rtr_stag0() { mpa_rep accept --p2p --rtr C --ird 1 --ord 1 --do rtr:kind=write,stag=0 --do rping-client:count=1 --expect rping=ok --expect term=none || return 1; rep_detail "STag-0 Write RTR accepted"; }
cell mpa-rep-p2p-no-rtr mpa-responder 40 "p2p negotiated but we skip the RTR and send the first rping Send directly"
cell_mpa_rep_p2p_no_rtr() { mpa_rep accept --p2p --rtr C --ird 1 --ord 1 --do rping-client:count=1,secs=5 || return 1; rep_detail "rping=$(jget rping) term=$(jget term) rx=$(jget rx_ops)"; }
cell mpa-rep-accept-race mpa-responder 60 "first FPDU sent the moment siw's Reply arrives: siw can strand it (accept race); a zero-length Write recovers"
cell_mpa_rep_accept_race() {
  local i stalls=0 tries=0
  for i in $(seq 4); do
    tries=$i
    rm -f "$CDIR/$CELL.pcap"
    SETTLE=0 vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do rping-client:count=1,nudge=2,secs=5 --expect rping=ok || return 1
    [ "$(jget nudged)" = 1 ] && { stalls=1; break; }
  done
  if [ $stalls = 1 ]; then
    detail "stall reproduced on try $tries: rping -s never saw our first Send until a zero-length Write arrived 2 s later; then 1 rping ok"
  else
    detail "no stall in $tries tries (race not hit this time); rping ok each time"
  fi
}
cell mpa-rep-markers mpa-responder 40 "M=1 in our Request -> siw rejects (R=1 Reply) rather than dropping"
cell_mpa_rep_markers() { mpa_rep reject --markers --ird 1 --ord 1 --expect reply.m=0 --expect reply.r=1 || return 1; rep_detail; }
cell mpa-rep-pd-252 mpa-responder 40 "PD_Length 256 (4 + 252 bytes ULP private data) -> accepted"
cell_mpa_rep_pd_252() { mpa_rep accept --pd-size 252 --ird 1 --ord 1 || return 1; rep_detail "request PD_Length=$(jget request.pd_length)"; }
cell mpa-rep-pd-253 mpa-responder 40 "PD_Length 257 (> 256) -> siw closes without a Reply"
cell_mpa_rep_pd_253() { mpa_rep closed --pd-size 253 --ird 1 --ord 1 || return 1; rep_detail "request PD_Length=$(jget request.pd_length)"; }
cell mpa-rep-pd-len-lie mpa-responder 40 "PD_Length says 8, 4 bytes follow (frame never completes) -> siw's timeout"
cell_mpa_rep_pd_len_lie() { mpa_rep "closed|none" --ird 1 --ord 1 --pd-len 8 --reply-timeout 8 || return 1; rep_detail; }
cell mpa-rep-extra mpa-responder 40 "4 extra bytes after our Request in the same segment -> siw closes, no Reply"
cell_mpa_rep_extra() { mpa_rep closed --ird 1 --ord 1 --extra 00000000 || return 1; rep_detail; }
cell mpa-rep-no-request mpa-responder 40 "TCP connect, no MPA Request -> when/how siw closes"
cell_mpa_rep_no_request() {
  vs_server rs 7174 "$RPING_S" --no-request --linger 8 --expect close="FIN|RST" || return 1
  detail "siw closed with $(jget close) after $(secs_until_close connected) s"
}
cell mpa-rep-bad-key mpa-responder 40 "a Reply key in our Request -> siw closes"
cell_mpa_rep_bad_key() { mpa_rep closed --key "MPA ID Rep Frame" --ird 1 --ord 1 || return 1; rep_detail; }
cell mpa-rep-rev3 mpa-responder 40 "Rev 3 -> siw closes"
cell_mpa_rep_rev3() { mpa_rep closed --rev 3 --enhanced on --ird 1 --ord 1 || return 1; rep_detail; }
cell mpa-rep-siw-crc-required mpa-responder 40 "siw mpa_crc_required=Y, our Request C=0 -> siw's Reply C bit and the CRC state"
cell_mpa_rep_siw_crc_required() { siwparam mpa_crc_required=Y || return $?; mpa_rep accept --ird 1 --ord 1 --do rping-client:count=1,secs=5 || return 1; rep_detail "reply.c=$(jget reply.c) rping=$(jget rping) term=$(jget term)"; }
cell mpa-rep-siw-crc-strict mpa-responder 40 "siw mpa_crc_strict=Y (CRC not required), our Request C=1 -> reject"
cell_mpa_rep_siw_crc_strict() { siwparam mpa_crc_strict=Y || return $?; mpa_rep reject --crc on --ird 1 --ord 1 || return 1; rep_detail; }
cell mpa-rep-responder-first mpa-responder 40 "ucmatose server sends as soon as it is ESTABLISHED: does siw send before our first FPDU?"
cell_mpa_rep_responder_first() {
  GWAIT=1 vs_server uc 7471 "ucmatose -b $GIP -p 7471 -C 1 -S 64" --ird 1 --ord 1 --linger 3 --expect mpa=accept || return 1
  detail "FPDUs from siw before we sent any: $(jget rx_ops) (first: $(jget first_rx))"
}

# ==================================================================================== MPA: siw as Initiator
mpa_req() {   # probe listens; rping -c in the guest connects
  vs_client rc 7174 "$RPING_C" "$@"
}
req_detail() { detail "request $(jget request.hex); $*"; }
cell mpa-req-default mpa-initiator 40 "siw's default Request (rping -c); accept; 1 rping as server"
cell_mpa_req_default() { mpa_req --do rping-server:count=1 --expect request.hex=4d504120494420526571204672616d651002000400010001 --expect rping=ok || return 1; req_detail "rping -c exit $(gwait rc 1)"; grc_is rc 0; }
cell mpa-req-crc mpa-initiator 40 "siw mpa_crc_required=Y: Request C=1"
cell_mpa_req_crc() { siwparam mpa_crc_required=Y || return $?; mpa_req --reply reject --expect request.c=1 || return 1; req_detail; }
cell mpa-req-p2p mpa-initiator 40 "siw peer_to_peer=Y: Request A=1 offering C+D; we pick C (Write RTR) -> siw's RTR bytes; 1 rping"
cell_mpa_req_p2p() { siwparam peer_to_peer=Y || return $?; mpa_req --rtr C --do rping-server:count=1 --expect request.enh.a=1 --expect first_rx=rdma-write --expect rping=ok || return 1; req_detail "RTR $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rx_fpdus"][0]["hex"])' "$CDIR/$CELL.json")"; grc_is rc 0; }
cell mpa-req-p2p-read mpa-initiator 40 "siw peer_to_peer=Y; we pick D (Read RTR): siw's zero-length Read Request; we answer; 1 rping"
cell_mpa_req_p2p_read() { siwparam peer_to_peer=Y || return $?; mpa_req --rtr D --ird 1 --do rping-server:count=1 --expect first_rx=rdma-read-request --expect rping=ok || return 1; req_detail "RTR $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rx_fpdus"][0]["hex"])' "$CDIR/$CELL.json")"; grc_is rc 0; }
cell mpa-req-p2p-send mpa-initiator 40 "siw peer_to_peer=Y; we pick only B (Send RTR, not offered) -> siw's Terminate"
cell_mpa_req_p2p_send() { siwparam peer_to_peer=Y || return $?; mpa_req --rtr B --linger 3 --expect term=2/0/07 || return 1; req_detail "$(term_detail)"; }
cell mpa-req-p2p-reply-a0 mpa-initiator 40 "siw peer_to_peer=Y; we answer A=0 (client-server) -> siw's reaction"
cell_mpa_req_p2p_reply_a0() { siwparam peer_to_peer=Y || return $?; mpa_req --no-p2p --linger 3 --expect term=2/0/07 || return 1; req_detail "$(term_detail); rping -c: $(glog rc | grep -m1 -i -e error -e event)"; }
cell mpa-req-rev1 mpa-initiator 40 "siw mpa_version=1: Rev 1 Request; accept with Rev 1; 1 rping as server"
cell_mpa_req_rev1() { siwparam mpa_version=1 || return $?; mpa_req --do rping-server:count=1,secs=5 --expect request.rev=1 --expect request.pd_length=0 || return 1; req_detail "rping=$(jget rping) term=$(jget term) rping -c exit $(gwait rc 1)"; }
cell mpa-req-gso mpa-initiator 40 "siw try_gso=Y: the private GSO bit (0x08) in byte 16"
cell_mpa_req_gso() { siwparam try_gso=Y || return $?; mpa_req --reply reject --expect request.gso=1 || return 1; req_detail; }
rping_c_event() { glog rc | grep -m1 -E 'RDMA_CM_EVENT|error|fail' || echo "(no event line)"; }
cell mpa-req-reject-enh mpa-initiator 40 "Reply R=1 with S=1 and the IRD/ORD block -> rping REJECTED"
cell_mpa_req_reject_enh() { mpa_req --reply reject --expect reply.r=1 || return 1; req_detail "rping -c: $(rping_c_event); siw close=$(jget close)"; glog rc | grep -q REJECTED; }
cell mpa-req-reject-enh-pd mpa-initiator 40 "Reply R=1 with the block + 8 bytes ULP private data -> REJECTED"
cell_mpa_req_reject_enh_pd() { mpa_req --reply reject --pd 0102030405060708 --expect reply.r=1 || return 1; req_detail "rping -c: $(rping_c_event)"; glog rc | grep -q REJECTED; }
cell mpa-req-reject-plain mpa-initiator 40 "Reply R=1 without S / block (PD_Length 0) -> what rping reports"
cell_mpa_req_reject_plain() { mpa_req --reply reject --enhanced off || return 1; req_detail "rping -c: $(rping_c_event)"; }
cell mpa-req-reject-plain-close mpa-initiator 40 "Reply R=1 without S / block (PD_Length 0) and an immediate close -> what rping reports"
cell_mpa_req_reject_plain_close() { mpa_req --reply reject --enhanced off --linger 0 || return 1; req_detail "rping -c: $(rping_c_event)"; }
cell mpa-req-reject-enh-close mpa-initiator 40 "Reply R=1 with S and the block, then an immediate close -> REJECTED"
cell_mpa_req_reject_enh_close() { mpa_req --reply reject --linger 0 || return 1; req_detail "rping -c: $(rping_c_event)"; glog rc | grep -q REJECTED; }
cell mpa-req-accept-rev1 mpa-initiator 40 "accepting Reply with Rev 1 (no S) to siw's Rev 2 Request"
cell_mpa_req_accept_rev1() { mpa_req --rev 1 --enhanced off --linger 3 || return 1; req_detail "rping -c: $(rping_c_event); close=$(jget close)"; }
cell mpa-req-accept-rev2-noenh mpa-initiator 40 "accepting Reply Rev 2 but S=0 to siw's enhanced Request"
cell_mpa_req_accept_rev2_noenh() { mpa_req --enhanced off --linger 3 || return 1; req_detail "rping -c: $(rping_c_event); close=$(jget close)"; }
cell mpa-req-accept-crc mpa-initiator 40 "siw asked C=0, our Reply C=1 -> siw uses CRC (1 rping, siw CRCs checked)"
cell_mpa_req_accept_crc() { mpa_req --crc on --do rping-server:count=1 --expect reply.c=1 --expect rping=ok --expect rx_crc_bad=0 --expect crc=1 || return 1; req_detail "rping -c exit $(gwait rc 1)"; grc_is rc 0; }
cell mpa-req-reply-ord-128 mpa-initiator 40 "Reply ORD=128 (> siw IRD 1, = its max) -> accepted (relaxed IRD negotiation)"
cell_mpa_req_reply_ord_128() { mpa_req --ord 128 --do rping-server:count=1 --expect term=none --expect rping=ok || return 1; req_detail "rping -c exit $(gwait rc 1)"; }
cell mpa-req-reply-ord-200 mpa-initiator 40 "Reply ORD=200 (> siw max IRD 128) -> siw's Terminate (insufficient IRD)"
cell_mpa_req_reply_ord_200() { mpa_req --ord 200 --linger 3 --expect term=2/0/06 || return 1; req_detail "$(term_detail)"; }
cell mpa-req-reply-markers mpa-initiator 40 "accepting Reply with M=1 -> siw refuses"
cell_mpa_req_reply_markers() { mpa_req --markers --linger 3 || return 1; req_detail "rping -c: $(rping_c_event); close=$(jget close); term=$(jget term)"; }
cell mpa-req-no-reply mpa-initiator 40 "no Reply at all -> siw's timeout and how it closes"
cell_mpa_req_no_reply() {
  GWAIT=4 mpa_req --reply none --linger 12 --expect close="FIN|RST" || return 1
  req_detail "close=$(jget close) at $(secs_until_close "received MPA Request") s after the Request; rping -c: $(rping_c_event)"
}
SEND16=00224143000000000000000000000001000000000000000000000000000000000000000000000000
cell mpa-req-responder-sends-first mpa-initiator 40 "our Reply + a Send FPDU in the same segment (responder sends first)"
cell_mpa_req_responder_sends_first() { mpa_req --extra "$SEND16" --linger 3 || return 1; req_detail "rping -c: $(rping_c_event); close=$(jget close); rx=$(jget rx_ops)"; }

# ==================================================================================== Terminates
term_cell() {   # term_cell EXPECTED_LEC EXPECTED_CLOSE vs_server|vs_client ARGS...
  local lec=$1 cl=$2 how=$3; shift 3
  "$how" "$@" --linger 3 --expect term="$lec" --expect close="$cl" || return 1
  detail "$(term_detail)"
}
cell term-crc terminate 40 "CRC negotiated, a Send with a wrong CRC -> siw's Terminate"
cell_term_crc() { term_cell 2/0/02 "FIN|RST" vs_server rs 7174 "$RPING_S" --crc on --ird 1 --ord 1 --do send:len=16,crc=bad; }
cell term-write-invalid-stag terminate 40 "RDMA Write to an STag siw never issued -> Terminate"
cell_term_write_invalid_stag() { term_cell 1/1/00 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do write:stag=0xdeadbe00,to=0x1000,len=16; }
cell term-write-wrong-key terminate 40 "RDMA Write to the advertised STag with a different key byte -> Terminate"
cell_term_write_wrong_key() { term_cell 1/1/00 "FIN|RST" vs_client rc 7174 "$RPING_C" --do expect-rx:op=send --do "write:stag=adv_rkey^0x5a,to=adv_addr,len=16"; }
cell term-write-bounds terminate 40 "RDMA Write past the end of the region rping -c advertised -> Terminate"
cell_term_write_bounds() { term_cell 1/1/01 "FIN|RST" vs_client rc 7174 "$RPING_C" --do expect-rx:op=send --do "write:stag=adv_rkey,to=adv_addr+adv_len-8,len=64"; }
cell term-read-bounds terminate 40 "Read Request past the end of the advertised region -> Terminate (RDMAP, R=1)"
cell_term_read_bounds() { term_cell 0/1/01 "FIN|RST" vs_client rc 7174 "$RPING_C" --do expect-rx:op=send --do "rreq:sink_stag=0x2100,sink_to=0x7f0000300000,size=64,src_stag=adv_rkey,src_to=adv_addr+adv_len-8"; }
cell term-read-invalid-stag terminate 40 "Read Request with an unknown source STag -> Terminate"
cell_term_read_invalid_stag() { term_cell 0/1/00 "FIN|RST" vs_client rc 7174 "$RPING_C" --do expect-rx:op=send --do "rreq:sink_stag=0x2100,sink_to=0x7f0000300000,size=16,src_stag=0xdeadbe00,src_to=0x1000"; }
# rdma_server answers its receive completion (good or bad) with a Send at once; when that Send is on siw's
# transmitter first, siw drops its Terminate (FINDINGS F5): then the Send and a bare FIN
cell term-send-too-long terminate 40 "rdma_server posted one 16-byte receive; we Send 64 bytes -> Terminate (or, F5, rdma_server's Send and a bare FIN)"
cell_term_send_too_long() { term_cell "1/2/02|none" "FIN|RST" vs_server srv 7471 "rdma_server -s $GIP -p 7471" --do send:len=64; }
cell term-send-no-recv terminate 40 "rdma_server posted one receive; two 16-byte Sends in one segment -> Terminate for the 2nd (or, F5, a bare FIN)"
cell_term_send_no_recv() { term_cell "1/2/02|none" "FIN|RST" vs_server srv 7471 "rdma_server -s $GIP -p 7471" --do send:len=16,batch=1 --do send:len=16; }
cell term-send-bad-msn terminate 40 "first Send with MSN 7 instead of 1 -> Terminate"
cell_term_send_bad_msn() { term_cell 1/2/03 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do send:len=16,msn=7; }
cell term-send-bad-qn terminate 40 "Send on QN 5 -> Terminate"
cell_term_send_bad_qn() { term_cell 1/2/01 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do send:len=16,qn=5; }
cell term-ird-exceeded terminate 40 "siw IRD=1 (our Reply ORD=1): 4 Read Requests in one segment -> Terminate (or, when siw's TX is busy, a bare FIN)"
cell_term_ird_exceeded() { term_cell "0/2/07|none" FIN vs_client rc 7174 "$RPING_C" --ord 1 --do expect-rx:op=send --do "rreq:count=4,sink_stag=0x2100,sink_to=0x7f0000300000,size=16,src_stag=adv_rkey,src_to=adv_addr"; }
cell term-ird-exceeded-busy terminate 60 "siw IRD=5 (8 slots): 10 Read Requests in one segment; when siw's TX is mid-Read-Response it closes WITHOUT a Terminate"
cell_term_ird_exceeded_busy() {
  local i bare=0
  for i in $(seq 5); do
    rm -f "$CDIR/$CELL.pcap"
    vs_client rc 7174 "$RPING_C" --ord 5 --linger 3 --do expect-rx:op=send \
      --do "rreq:count=10,sink_stag=0x2100,sink_to=0x7f0000300000,size=16,src_stag=adv_rkey,src_to=adv_addr" \
      --expect "term=0/2/07|none" --expect close=FIN || return 1
    [ "$(jget term)" = none ] && { bare=1; break; }
  done
  if [ $bare = 1 ]; then
    detail "try $i: siw closed with a bare FIN, no Terminate (rx: $(jget rx_ops))"
  else
    detail "Terminate 0/2/07 + FIN in all $i tries (the TX-busy case was not hit)"
  fi
}
cell term-ird-zero terminate 40 "siw IRD=0 (our Reply ORD=0): one Read Request -> Terminate"
cell_term_ird_zero() { term_cell 0/2/07 "FIN|RST" vs_client rc 7174 "$RPING_C" --ord 0 --do expect-rx:op=send --do "rreq:sink_stag=0x2100,sink_to=0x7f0000300000,size=16,src_stag=adv_rkey,src_to=adv_addr"; }
cell term-ird-pow2 terminate 40 "siw IRD=5 (our Reply ORD=5) is rounded up to 8: 7 Read Requests in one segment are all answered"
cell_term_ird_pow2() {
  vs_client rc 7174 "$RPING_C" --ord 5 --linger 2 --do expect-rx:op=send \
    --do "rreq:count=7,sink_stag=0x2100,sink_to=0x7f0000300000,size=16,src_stag=adv_rkey,src_to=adv_addr" \
    --expect term=none --expect rx_ops=send,rdma-read-response,rdma-read-response,rdma-read-response,rdma-read-response,rdma-read-response,rdma-read-response,rdma-read-response || return 1
  detail "7 Read Responses, no Terminate (IRD 5 -> 8 slots)"
}
cell term-opcode-8 terminate 40 "opcode 8 (RFC 7306 Immediate Data) -> Terminate"
cell_term_opcode_8() { term_cell 0/2/06 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do untagged:opcode=8,qn=0,msn=1,len=8; }
cell term-opcode-10 terminate 40 "opcode 10 (RFC 7306 Atomic Request) -> Terminate"
cell_term_opcode_10() { term_cell 0/2/06 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do untagged:opcode=10,qn=1,msn=1,len=28; }
cell term-opcode-15 terminate 40 "opcode 15 (reserved) tagged -> Terminate"
cell_term_opcode_15() { term_cell 0/2/06 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do tagged:opcode=15,stag=1,to=0,len=8; }
cell term-ddp-version-untagged terminate 40 "Send with DDP version 0 -> Terminate"
cell_term_ddp_version_untagged() { term_cell 1/2/06 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do send:len=16,dv=0; }
cell term-ddp-version-tagged terminate 40 "RDMA Write with DDP version 2 -> Terminate"
cell_term_ddp_version_tagged() { term_cell 1/1/04 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do write:stag=0x100,to=0,len=16,dv=2; }
cell term-rdmap-version terminate 40 "Send with RDMAP version 2 -> Terminate"
cell_term_rdmap_version() { term_cell 0/2/05 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do send:len=16,rv=2; }
cell term-rdmap-version-0 terminate 40 "Send with RDMAP version 0 (RDMAC) -> Terminate"
cell_term_rdmap_version_0() { term_cell 0/2/05 "FIN|RST" vs_server rs 7174 "$RPING_S" --ird 1 --ord 1 --do send:len=16,rv=0; }

# ==================================================================================== iwarp (Java) <-> siw
# iwarp4j's tools (tools/target/iwarp.jar, run directly: ./iwarp would start a Maven build when the jar is
# stale; run-matrix.sh makes sure it is fresh before the cells) against siw and its tools, both ways. Each
# cell checks both exit statuses, what each side printed, and the capture (iwarp_probe.py pcap-summary:
# MPA frames, FPDUs each way with Terminates decoded in the layout their sender uses, CRCs, closes).
# Expected outcomes: FINDINGS.md for siw, errors.md §5 for our own Terminates.
IWARP_JAR=${IWARP_JAR:-$ROOT/tools/target/iwarp.jar}
# short-lived JVMs: C1 only and the serial collector start faster on 2 cores; perf cells override this
IW_JAVA_OPTS=${IWARP_MATRIX_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1}
FAILS=()

# iw TAG SECS ARGS... : run `iwarp ARGS` in the foreground (host side; the cell runs inside the lab
# namespace). Output in $CDIR/$CELL.iw-TAG.out, exit status in .iw-TAG.rc (and returned).
iw() {
  local tag=$1 t=$2 rc; shift 2
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
# iw_wait TAG SECS : sets IWRC to the exit status of a background iwarp ("none" if it had to be stopped
# after SECS). Not for $(...): `wait` only knows the children of this shell, not of a subshell.
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
g_has() { G "grep -qE -- '$2' /tmp/$1.log"; }                # g_has TAG REGEX : guest program TAG printed it
iw_line() { grep -m1 -E -- "$2" "$CDIR/$CELL.iw-$1.out" | cut -c1-200; }

# chk WHAT CMD... : run a check; a failed one is recorded and fails the cell (verdict)
chk() { local what=$1; shift; "$@" || { FAILS+=("$what"); note "CHECK FAILED: $what"; }; }
is() { [ "$1" = "$2" ]; }
isnt() { [ "$1" != "$2" ]; }
# psum KEY=VALUE... : expectations on the cell's capture (connection ${PCONN:-0}); summary in $CELL.json
psum() {
  local a=() e
  for e in "$@"; do a+=(--expect "$e"); done
  echo "# pcap-summary (connection ${PCONN:-0}): $*" >> "$CDIR/$CELL.probe.log"
  python3 "$HERE/iwarp_probe.py" pcap-summary "$CDIR/$CELL.pcap" --ours "$HIP" --conn "${PCONN:-0}" \
    --json "$CDIR/$CELL.json" "${a[@]}" >> "$CDIR/$CELL.probe.log" 2>&1
}
verdict() {
  if [ ${#FAILS[@]} = 0 ]; then detail "$*"; return 0; fi
  detail "FAILED: $(IFS=';'; echo "${FAILS[*]}") -- $*"
  return 1
}
need_siwlab_cm() {   # the lab's librdmacm peer (guest/siwlab-cm.c); a real siw host needs it installed
  G "command -v siwlab-cm >/dev/null" && return 0
  detail "needs siwlab-cm on the siw host (gcc -O2 -o /usr/local/bin/siwlab-cm interop/guest/siwlab-cm.c -lrdmacm -libverbs)"
  return $NOT_RUN
}
need_jar() {
  [ -f "$IWARP_JAR" ] && return 0
  detail "FAILED: $IWARP_JAR missing (mvn -B -pl tools -am package)"; return 1
}

# to_siw OUR_ARGS... : `iwarp rping -c -C 3 -S 64 -V -d` against siw's `rping -s -C 3 -S 64`.
# Sets OUR (our exit status) and SIW (rping -s's; "none" if it had to be stopped).
to_siw() {
  gstart rs 40 "rping -s -a $GIP -C 3 -S 64"
  gwait_listen 7174 || note "siw rping -s did not listen"
  cap_start "tcp port 7174"
  iw c 40 rping -c -a "$GIP" -C 3 -S 64 -V -d "$@"; OUR=$?
  cap_stop
  SIW=$(gwait rs "${SIWWAIT:-5}"); [ "$SIW" = none ] && gstop rs
}
# from_siw "SIW CLIENT" OUR_ARGS... : siw's client connects to `iwarp rping -s -S 64 -d OUR_ARGS`
RPING_C3="rping -c -a $HIP -C 3 -S 64 -V"
from_siw() {   # FROM_SIW_GUEST_SECS: how long siw's rping -c may run (default 40)
  local cmd=$1 gs=${FROM_SIW_GUEST_SECS:-40}; shift
  cap_start "tcp port 7174"
  iw_bg s 40 7174 rping -s -a "$HIP" -S 64 -d "$@"
  gstart rc "$gs" "$cmd"
  SIW=$(gwait rc "$gs")
  iw_wait s 10; OUR=$IWRC
  cap_stop
}
both_ok() {
  chk "iwarp exit 0 (got $OUR)" is "$OUR" 0
  chk "siw exit 0 (got $SIW)" is "$SIW" 0
  chk "capture: $*" psum "$@"
}
no_terms="siw_term=none ours_term=none crc_bad=0"
# irdord_captures "QIRD:QORD:RIRD:RORD ..." : connection i of the capture has the i-th combination of Request
# and Reply IRD/ORD (and no Terminate); IRDORD_SEEN lists what was seen, "q/q->r/r;" per connection
irdord_captures() {
  local c i=0 qi qo ri ro
  IRDORD_SEEN=""
  for c in $1; do
    IFS=: read -r qi qo ri ro <<< "$c"
    PCONN=$i chk "capture $i" psum mpa=accept $no_terms request.enh.ird="$qi" request.enh.ord="$qo" \
      reply.enh.ird="$ri" reply.enh.ord="$ro"
    IRDORD_SEEN="$IRDORD_SEEN ${qi}/${qo}->$(jget reply.enh.ird)/$(jget reply.enh.ord);"
    i=$((i+1))
  done
}
mpa_line() { echo "Request $(jget request.hex | cut -c33-); Reply $(jget reply.hex | cut -c33-)"; }

# ---------------------------------------------------------------------------------- rping both ways
rping_client_cell() {   # iwarp rping -c (-V) -> siw rping -s, 50 pings of SIZE
  local s=$1
  need_jar || return 1
  gstart rs 90 "rping -s -a $GIP -C 50 -S $s"
  gwait_listen 7174 || note "siw rping -s did not listen"
  cap_start "tcp port 7174"
  iw c 90 rping -c -a "$GIP" -C 50 -S "$s" -V -d; OUR=$?
  cap_stop
  SIW=$(gwait rs 15)
  both_ok mpa=accept $no_terms reply.c=1 crc=1 siw_n_rdma-read-request=50 ours_n_send=100 ours_zero_len_writes=0
  verdict "50 pings of $s octets, validated by iwarp (-V); siw rping -s exit $SIW; CRC on, all CRCs good; siw: $(jget siw_n_rdma-read-request) Read Requests, $(jget siw_n_rdma-write) Write FPDUs; iwarp: $(jget ours_n_send) Sends"
}
rping_server_cell() {   # siw rping -c (-V) -> iwarp rping -s, 50 pings of SIZE
  local s=$1
  need_jar || return 1
  cap_start "tcp port 7174"
  iw_bg s 90 7174 rping -s -a "$HIP" -S "$s" -d
  gstart rc 90 "rping -c -a $HIP -C 50 -S $s -V"
  SIW=$(gwait rc 90)
  iw_wait s 15; OUR=$IWRC
  cap_stop
  both_ok mpa=accept $no_terms siw_n_send=100 ours_n_rdma-read-request=50
  chk "siw rping -c validated 50 pings (exit 0, no mismatch)" eval '! g_has rc "mismatch|error|fail"'
  verdict "50 pings of $s octets, validated by siw rping -c (-V, exit $SIW); iwarp rping -s exit $OUR; CRC $( [ "$(jget crc)" = 1 ] && echo on || echo off); iwarp: $(jget ours_n_rdma-read-request) Read Requests, $(jget ours_n_rdma-write) Write FPDUs"
}
for s in 26 64 1024 4096 65535; do
  cell "iwarp-rping-client-s$s" iwarp 120 "iwarp rping -c -V -S $s -C 50 -> siw rping -s"
  eval "cell_iwarp_rping_client_s$s() { rping_client_cell $s; }"
  cell "iwarp-rping-server-s$s" iwarp 120 "siw rping -c -V -S $s -C 50 -> iwarp rping -s"
  eval "cell_iwarp_rping_server_s$s() { rping_server_cell $s; }"
done

# ---------------------------------------------------------------------------------- rdma_client/rdma_server
cell iwarp-rdma-client-to-siw iwarp 60 "iwarp rdma-client -> siw rdma_server"
cell_iwarp_rdma_client_to_siw() {
  need_jar || return 1
  gstart srv 30 "rdma_server -s $GIP -p 7471"
  gwait_listen 7471 || note "rdma_server did not listen"
  cap_start "tcp port 7471"
  iw c 30 rdma-client -s "$GIP" -p 7471 -d; OUR=$?
  cap_stop
  SIW=$(gwait srv 5)
  both_ok mpa=accept $no_terms request.enh.ird=128 request.enh.ord=128 ours_ops=send siw_ops=send
  chk "iwarp: end 0" iw_has c "rdma_client: end 0"
  chk "rdma_server: end 0" g_has srv "rdma_server: end 0"
  verdict "iwarp rdma_client: end 0, siw rdma_server: end 0; $(mpa_line); one 16-octet Send each way"
}
cell iwarp-rdma-server-from-siw iwarp 60 "siw rdma_client -> iwarp rdma-server"
cell_iwarp_rdma_server_from_siw() {
  need_jar || return 1
  cap_start "tcp port 7471"
  iw_bg s 30 7471 rdma-server -a "$HIP" -p 7471 -d
  gstart cl 30 "rdma_client -s $HIP -p 7471"
  SIW=$(gwait cl 30)
  iw_wait s 10; OUR=$IWRC
  cap_stop
  both_ok mpa=accept $no_terms request.enh.ird=128 request.enh.ord=128 ours_ops=send siw_ops=send
  chk "iwarp: end 0" iw_has s "rdma_server: end 0"
  chk "rdma_client: end 0" g_has cl "rdma_client: end 0"
  verdict "siw rdma_client: end 0, iwarp rdma_server: end 0; $(mpa_line)"
}

# ---------------------------------------------------------------------------------- MPA variants, iwarp initiator
cell iwarp-mpa-to-siw-crc-off iwarp 60 "MPA: iwarp --crc off -> siw rping -s (CRC off both sides)"
cell_iwarp_mpa_to_siw_crc_off() {
  need_jar || return 1; to_siw --crc off
  both_ok mpa=accept $no_terms request.c=0 reply.c=0 crc=0
  verdict "no CRC: $(mpa_line); 3 pings ok"
}
cell iwarp-mpa-to-siw-crc-on iwarp 60 "MPA: iwarp --crc on -> siw rping -s with mpa_crc_required=Y (both ask)"
cell_iwarp_mpa_to_siw_crc_on() {
  need_jar || return 1; siwparam mpa_crc_required=Y || return $?; to_siw --crc on
  both_ok mpa=accept $no_terms request.c=1 reply.c=1 crc=1
  verdict "CRC on, every CRC good: $(mpa_line)"
}
cell iwarp-mpa-to-siw-crc-required-iwarp-only iwarp 60 "MPA: iwarp asks CRC (C=1), siw does not -> CRC on"
cell_iwarp_mpa_to_siw_crc_required_iwarp_only() {
  need_jar || return 1; to_siw --crc on
  both_ok mpa=accept $no_terms request.c=1 reply.c=1 crc=1
  verdict "siw echoes C=1, CRC on: $(mpa_line)"
}
cell iwarp-mpa-to-siw-crc-required-siw-only iwarp 60 "MPA: siw mpa_crc_required=Y, iwarp --crc off -> siw replies C=0, no CRC (FINDINGS R7)"
cell_iwarp_mpa_to_siw_crc_required_siw_only() {
  need_jar || return 1; siwparam mpa_crc_required=Y || return $?; to_siw --crc off
  both_ok mpa=accept $no_terms request.c=0 reply.c=0 crc=0
  verdict "siw as Responder ignores its own mpa_crc_required (R7): $(mpa_line); 3 pings ok without CRC"
}
cell iwarp-mpa-to-siw-crc-strict iwarp 60 "MPA: siw mpa_crc_strict=Y, iwarp --crc on -> siw rejects; iwarp reports REJECTED"
cell_iwarp_mpa_to_siw_crc_strict() {
  need_jar || return 1; siwparam mpa_crc_strict=Y || return $?; SIWWAIT=1 to_siw --crc on
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp says REJECTED" iw_has c "connect error: REJECTED"
  chk "capture" psum mpa=reject reply.r=1 reply.c=0 request.c=1 siw_count=0 ours_count=0
  verdict "siw rejects ($(mpa_line)); iwarp: $(iw_line c 'connect error')"
}
cell iwarp-mpa-to-siw-rev1 iwarp 60 "MPA: iwarp rdma-client --mpa-rev 1 -> siw rdma_server (Rev 1 Reply, no IRD/ORD; Sends work)"
cell_iwarp_mpa_to_siw_rev1() {
  need_jar || return 1
  gstart srv 30 "rdma_server -s $GIP -p 7471"
  gwait_listen 7471 || note "rdma_server did not listen"
  cap_start "tcp port 7471"
  iw c 30 rdma-client -s "$GIP" -p 7471 --mpa-rev 1 -d; OUR=$?
  cap_stop
  SIW=$(gwait srv 5)
  both_ok mpa=accept $no_terms request.rev=1 request.s=0 reply.rev=1 reply.s=0 request.pd_length=0
  chk "iwarp: end 0" iw_has c "rdma_client: end 0"
  verdict "Rev 1 both ways: $(mpa_line); rdma_client/rdma_server end 0"
}
cell iwarp-mpa-to-siw-rev1-rping iwarp 60 "MPA: iwarp rping -c --mpa-rev 1 -> siw rping -s: siw has IRD=ORD=0 and cannot RDMA Read (FINDINGS M4); both fail cleanly"
cell_iwarp_mpa_to_siw_rev1_rping() {
  need_jar || return 1; to_siw --mpa-rev 1
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "siw rping -s failed and ended (got $SIW)" isnt "$SIW" 0
  chk "siw rping -s ended by itself" isnt "$SIW" none
  chk "capture" psum mpa=accept reply.rev=1 $no_terms
  verdict "Rev 1: siw rping -s: $(glog rs | grep -m1 -iE 'error|fail' | cut -c1-80); iwarp: $(iw_line c 'failed|wait for|error')"
}
cell iwarp-mpa-to-siw-rev2 iwarp 60 "MPA: iwarp Rev 2 (S=1, IRD=ORD=1) -> siw rping -s"
cell_iwarp_mpa_to_siw_rev2() {
  need_jar || return 1; to_siw
  both_ok mpa=accept $no_terms request.rev=2 request.s=1 reply.rev=2 reply.s=1 reply.enh.ird=1 reply.enh.ord=1
  verdict "$(mpa_line); 3 pings ok"
}
cell iwarp-mpa-to-siw-p2p-write-rtr iwarp 60 "MPA: iwarp --p2p write -> siw picks C; iwarp's zero-length Write RTR first"
cell_iwarp_mpa_to_siw_p2p_write_rtr() {
  need_jar || return 1; to_siw --p2p write
  both_ok mpa=accept $no_terms reply.enh.a=1 reply.enh.c=1 reply.enh.d=0 ours_first=rdma-write
  chk "RTR = zero-length Write STag 1 TO 0" eval '[[ "$(jget ours_first_hex)" == 000ec140000000010000000000000000* ]]'
  verdict "$(mpa_line); RTR $(jget ours_first_hex | cut -c1-36); 3 pings ok"
}
cell iwarp-mpa-to-siw-p2p-read-rtr iwarp 60 "MPA: iwarp --p2p read -> siw picks D; zero-length Read RTR, siw's zero-length Read Response"
cell_iwarp_mpa_to_siw_p2p_read_rtr() {
  need_jar || return 1; to_siw --p2p read
  both_ok mpa=accept $no_terms reply.enh.a=1 reply.enh.d=1 reply.enh.c=0 ours_first=rdma-read-request siw_first=rdma-read-response
  chk "siw's zero-length Read Response (STag/TO 0)" eval '[[ "$(jget siw_first_hex)" == 000ec142000000000000000000000000* ]]'
  verdict "$(mpa_line); RTR answered by $(jget siw_first_hex | cut -c1-36); 3 pings ok"
}
cell iwarp-mpa-to-siw-ird-ord-combos iwarp 90 "MPA: iwarp IRD/ORD 5/3, 200/200, 16/1 -> siw rping -s: siw answers min(ORD,128)/min(IRD,128) (FINDINGS M5), iwarp adopts"
cell_iwarp_mpa_to_siw_ird_ord_combos() {
  need_jar || return 1
  local combos="5:3:3:5 200:200:128:128 16:1:1:16" c i=0 out=""
  cap_start "tcp port 7174"
  for c in $combos; do
    IFS=: read -r ird ord rird rord <<< "$c"
    gstart rs 30 "rping -s -a $GIP -C 1 -S 64"
    gwait_listen 7174 || note "rping -s did not listen"
    iw "c$i" 30 rping -c -a "$GIP" -C 1 -S 64 -V -d --ird "$ird" --ord "$ord"; rc=$?
    chk "IRD $ird ORD $ord: iwarp exit 0" is "$rc" 0
    chk "IRD $ird ORD $ord: siw exit 0" is "$(gwait rs 5)" 0
    chk "IRD $ird ORD $ord: iwarp adopted IRD $ird ORD $rird" iw_has "c$i" "IRD $ird, ORD $rird,"
    i=$((i+1))
  done
  cap_stop
  irdord_captures "$combos"
  verdict "Request IRD/ORD -> siw Reply IRD/ORD:$IRDORD_SEEN iwarp ran with IRD = its own, ORD = min(its own, siw's IRD); 1 ping each ok"
}
cell iwarp-mpa-to-siw-reject-insufficient-ord iwarp 60 "MPA: iwarp IRD 0 -> siw does NOT reject for insufficient IRD (answers ORD 0); its rping -s cannot read; both fail cleanly"
cell_iwarp_mpa_to_siw_reject_insufficient_ord() {
  need_jar || return 1; to_siw --ird 0
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "siw rping -s failed by itself (got $SIW)" eval '[ "$SIW" != 0 ] && [ "$SIW" != none ]'
  chk "capture" psum mpa=accept reply.r=0 request.enh.ird=0 reply.enh.ord=0 $no_terms
  verdict "no reject from siw: $(mpa_line); siw rping -s: $(glog rs | grep -m1 -iE 'error|fail' | cut -c1-60); iwarp: $(iw_line c 'failed|wait for|error')"
}
cell iwarp-mpa-to-siw-reject-private-data iwarp 60 "MPA: siw (siwlab-cm) rejects with private data -> iwarp reports REJECTED with the octets"
cell_iwarp_mpa_to_siw_reject_private_data() {
  need_jar || return 1; need_siwlab_cm || return $?
  gstart cm 30 "siwlab-cm server $GIP 7174 --reject c0ffee0123"
  gwait_listen 7174 || note "siwlab-cm did not listen"
  cap_start "tcp port 7174"
  iw c 30 rping -c -a "$GIP" -C 1 -S 64 -d --private-data 5eed; OUR=$?
  cap_stop
  SIW=$(gwait cm 5)
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp reports the reject's private data" iw_has c "REJECTED.*private data 5 octets c0ffee0123"
  chk "siwlab-cm saw our private data" g_has cm "request private_data 5eed "
  chk "siwlab-cm exit 0" is "$SIW" 0
  chk "capture" psum mpa=reject reply.r=1 reply.ulp_pd_hex=c0ffee0123 request.ulp_pd_hex=5eed siw_count=0 ours_count=0
  verdict "siw's reject $(jget reply.hex | cut -c33-); iwarp: $(iw_line c 'connect error')"
}
cell iwarp-mpa-to-siw-private-data iwarp 60 "MPA: private data both ways on an accepted connection (iwarp rdma-client <-> siwlab-cm)"
cell_iwarp_mpa_to_siw_private_data() {
  need_jar || return 1; need_siwlab_cm || return $?
  gstart cm 30 "siwlab-cm server $GIP 7471 --accept 5eed0001"
  gwait_listen 7471 || note "siwlab-cm did not listen"
  cap_start "tcp port 7471"
  iw c 30 rdma-client -s "$GIP" -p 7471 -d --private-data 0a0b0c0d; OUR=$?
  cap_stop
  SIW=$(gwait cm 5)
  both_ok mpa=accept $no_terms request.ulp_pd_hex=0a0b0c0d reply.ulp_pd_hex=5eed0001
  chk "iwarp got the Reply's private data" iw_has c "peer private data 5eed0001"
  chk "siw got the Request's private data" g_has cm "request private_data 0a0b0c0d "
  verdict "$(mpa_line); both applications saw the other's private data"
}
cell iwarp-mpa-to-siw-markers-refused iwarp 60 "MPA: iwarp --markers -> siw rejects (R=1, FINDINGS M8); iwarp reports REJECTED"
cell_iwarp_mpa_to_siw_markers_refused() {
  need_jar || return 1; SIWWAIT=1 to_siw --markers
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp says REJECTED" iw_has c "connect error: REJECTED"
  chk "capture" psum mpa=reject request.m=1 reply.r=1 reply.m=0 siw_count=0 ours_count=0
  verdict "siw rejects markers: $(mpa_line); iwarp: $(iw_line c 'connect error')"
}

# ---------------------------------------------------------------------------------- MPA variants, siw initiator
cell iwarp-mpa-from-siw-crc-off iwarp 60 "MPA: siw rping -c (C=0) -> iwarp --crc off: no CRC"
cell_iwarp_mpa_from_siw_crc_off() {
  need_jar || return 1; from_siw "$RPING_C3" --crc off
  both_ok mpa=accept $no_terms request.c=0 reply.c=0 crc=0
  verdict "no CRC: $(mpa_line); 3 pings validated by siw"
}
cell iwarp-mpa-from-siw-crc-on iwarp 60 "MPA: siw mpa_crc_required=Y -> iwarp --crc on (both ask)"
cell_iwarp_mpa_from_siw_crc_on() {
  need_jar || return 1; siwparam mpa_crc_required=Y || return $?; from_siw "$RPING_C3" --crc on
  both_ok mpa=accept $no_terms request.c=1 reply.c=1 crc=1
  verdict "CRC on, every CRC good: $(mpa_line)"
}
cell iwarp-mpa-from-siw-crc-required-iwarp-only iwarp 60 "MPA: siw C=0 -> iwarp --crc on: Reply C=1, siw adopts CRC"
cell_iwarp_mpa_from_siw_crc_required_iwarp_only() {
  need_jar || return 1; from_siw "$RPING_C3" --crc on
  both_ok mpa=accept $no_terms request.c=0 reply.c=1 crc=1
  verdict "siw switched CRC on: $(mpa_line)"
}
cell iwarp-mpa-from-siw-crc-required-siw-only iwarp 60 "MPA: siw mpa_crc_required=Y (C=1) -> iwarp --crc off: CRC on (RFC 5044 §4.4), Reply C=1"
cell_iwarp_mpa_from_siw_crc_required_siw_only() {
  need_jar || return 1; siwparam mpa_crc_required=Y || return $?; from_siw "$RPING_C3" --crc off
  both_ok mpa=accept $no_terms request.c=1 reply.c=1 crc=1
  verdict "CRC on although iwarp did not ask: $(mpa_line)"
}
cell iwarp-mpa-from-siw-rev1 iwarp 60 "MPA: siw mpa_version=1 -> iwarp accepts Rev 1 (no IRD/ORD block); 3 pings"
cell_iwarp_mpa_from_siw_rev1() {
  need_jar || return 1; siwparam mpa_version=1 || return $?; from_siw "$RPING_C3"
  both_ok mpa=accept $no_terms request.rev=1 request.s=0 reply.rev=1 reply.s=0
  verdict "Rev 1: $(mpa_line); 3 pings validated by siw"
}
cell iwarp-mpa-from-siw-rev2 iwarp 60 "MPA: siw Rev 2 (S=1, IRD=ORD=1) -> iwarp Reply Rev 2"
cell_iwarp_mpa_from_siw_rev2() {
  need_jar || return 1; from_siw "$RPING_C3"
  both_ok mpa=accept $no_terms request.rev=2 request.s=1 reply.rev=2 reply.s=1 reply.enh.ird=1 reply.enh.ord=1
  verdict "$(mpa_line); 3 pings validated by siw"
}
cell iwarp-mpa-from-siw-p2p-write-rtr iwarp 60 "MPA: siw peer_to_peer=Y -> iwarp --p2p write: Reply C; siw's Write RTR"
cell_iwarp_mpa_from_siw_p2p_write_rtr() {
  need_jar || return 1; siwparam peer_to_peer=Y || return $?; from_siw "$RPING_C3" --p2p write
  both_ok mpa=accept $no_terms request.enh.a=1 reply.enh.a=1 reply.enh.c=1 reply.enh.d=0 reply.enh.b=0 siw_first=rdma-write
  verdict "$(mpa_line); siw's RTR $(jget siw_first_hex | cut -c1-36); 3 pings"
}
cell iwarp-mpa-from-siw-p2p-read-rtr iwarp 60 "MPA: siw peer_to_peer=Y -> iwarp --p2p read: Reply D; siw's Read RTR answered by a zero-length Read Response"
cell_iwarp_mpa_from_siw_p2p_read_rtr() {
  need_jar || return 1; siwparam peer_to_peer=Y || return $?; from_siw "$RPING_C3" --p2p read
  both_ok mpa=accept $no_terms reply.enh.a=1 reply.enh.d=1 reply.enh.c=0 siw_first=rdma-read-request ours_first=rdma-read-response
  chk "our zero-length Read Response copies sink STag/TO 0" eval '[[ "$(jget ours_first_hex)" == 000ec142000000000000000000000000* ]]'
  verdict "$(mpa_line); siw RTR $(jget siw_first_hex | cut -c1-24)..., our answer $(jget ours_first_hex | cut -c1-36)"
}
cell iwarp-mpa-from-siw-p2p-send-rtr iwarp 60 "MPA: siw peer_to_peer=Y (offers C,D) -> iwarp --p2p send: Reply B only -> siw's Terminate 2/0/07 (FINDINGS M7), iwarp reports it"
cell_iwarp_mpa_from_siw_p2p_send_rtr() {
  need_jar || return 1; siwparam peer_to_peer=Y || return $?; from_siw "$RPING_C3" --p2p send
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp reports received 0x2/0x0/0x07" iw_has s "received 0x2/0x0/0x07"
  chk "siw rping -c failed (got $SIW)" eval '[ "$SIW" != 0 ] && [ "$SIW" != none ]'
  chk "capture" psum mpa=accept reply.enh.b=1 reply.enh.c=0 reply.enh.d=0 siw_first=terminate siw_term=2/0/07 siw_term_layout=bit-mirrored ours_count=0
  verdict "$(mpa_line); siw's first FPDU: Terminate ctrl $(jget siw_term_ctrl) = $(jget siw_term); iwarp: $(iw_line s 'failed status|terminated')"
}
cell iwarp-mpa-from-siw-ird-ord-combos iwarp 90 "MPA: iwarp accepts with its own IRD/ORD (16/1 to rping -c; --ird 4 --ord 2 -> 128/2 and derived 128/128 to rdma_client); siw adopts them"
cell_iwarp_mpa_from_siw_ird_ord_combos() {
  need_jar || return 1
  cap_start "tcp port 7174 or tcp port 7471"
  iw_bg s0 30 7174 rping -s -a "$HIP" -S 64 -d --ird 16
  gstart rc 30 "$RPING_C3"
  chk "rping -c exit 0" is "$(gwait rc 30)" 0
  iw_wait s0 10; chk "iwarp rping -s exit 0" is "$IWRC" 0
  iw_bg s1 30 7471 rdma-server -a "$HIP" -p 7471 -d --ird 4 --ord 2
  gstart cl 30 "rdma_client -s $HIP -p 7471"
  chk "rdma_client (4/2) end 0" is "$(gwait cl 30)" 0
  iw_wait s1 10; chk "iwarp rdma-server (4/2) exit 0" is "$IWRC" 0
  iw_bg s2 30 7471 rdma-server -a "$HIP" -p 7471 -d
  gstart cl 30 "rdma_client -s $HIP -p 7471"
  chk "rdma_client (128/128) end 0" is "$(gwait cl 30)" 0
  iw_wait s2 10; chk "iwarp rdma-server (128/128) exit 0" is "$IWRC" 0
  cap_stop
  # the 4/2 accept: our Responder raises its IRD to the Initiator's ORD (RFC 6581 §9.1 allows it), ORD 2 stays
  irdord_captures "1:1:16:1 128:128:128:2 128:128:128:128"
  verdict "siw's Request IRD/ORD -> iwarp's Reply IRD/ORD:$IRDORD_SEEN all exchanges completed"
}
cell iwarp-mpa-from-siw-reject-insufficient-ord iwarp 60 "MPA: siw rping -c (IRD 1) -> iwarp --required-ord 4: reject R=1 with ORD 4 (RFC 6581 §9.1); rping REJECTED"
cell_iwarp_mpa_from_siw_reject_insufficient_ord() {
  need_jar || return 1; from_siw "$RPING_C3" --required-ord 4
  chk "iwarp exit 0: rejected as asked (got $OUR)" is "$OUR" 0
  chk "iwarp says why" iw_has s "below the required ORD 4"
  chk "siw rping -c reports REJECTED" g_has rc "REJECTED"
  chk "capture" psum mpa=reject reply.r=1 reply.enh.ord=4 request.enh.ird=1 siw_count=0 ours_count=0
  verdict "$(mpa_line); siw: $(glog rc | grep -m1 REJECTED | cut -c1-60)"
}
cell iwarp-mpa-from-siw-reject-private-data iwarp 60 "MPA: siwlab-cm client -> iwarp rping -s --reject-data: siw's application gets REJECTED with our octets"
cell_iwarp_mpa_from_siw_reject_private_data() {
  need_jar || return 1; need_siwlab_cm || return $?
  from_siw "siwlab-cm client $HIP 7174 --pd 01020304" --reject-data 0a0b0c0d0e
  chk "iwarp exit 0: rejected as asked (got $OUR)" is "$OUR" 0
  chk "iwarp saw siw's private data" iw_has s "private data 01020304"
  chk "siwlab-cm: REJECTED (exit 3, got $SIW)" is "$SIW" 3
  chk "siwlab-cm got our private data" g_has rc "reject private_data 0a0b0c0d0e "
  chk "capture" psum mpa=reject reply.r=1 reply.ulp_pd_hex=0a0b0c0d0e request.ulp_pd_hex=01020304 siw_count=0 ours_count=0
  verdict "our reject $(jget reply.hex | cut -c33-); siw: $(glog rc | grep -m1 'reject private_data' | cut -c1-60)"
}
cell iwarp-mpa-from-siw-private-data iwarp 60 "MPA: private data both ways on an accepted connection (siwlab-cm client <-> iwarp rdma-server)"
cell_iwarp_mpa_from_siw_private_data() {
  need_jar || return 1; need_siwlab_cm || return $?
  cap_start "tcp port 7471"
  iw_bg s 30 7471 rdma-server -a "$HIP" -p 7471 -d --private-data 5eed0002
  gstart cm 30 "siwlab-cm client $HIP 7471 --pd 01020304"
  SIW=$(gwait cm 30)
  iw_wait s 10; OUR=$IWRC
  cap_stop
  both_ok mpa=accept $no_terms request.ulp_pd_hex=01020304 reply.ulp_pd_hex=5eed0002
  chk "iwarp saw siw's private data" iw_has s "private data 01020304"
  chk "siw saw ours" g_has cm "reply private_data 5eed0002 "
  verdict "$(mpa_line); both applications saw the other's private data"
}
cell iwarp-mpa-from-siw-markers-refused iwarp 60 "MPA: siw rping -c -> iwarp --markers (Reply M=1): siw refuses (FIN, REJECTED, FINDINGS M8); iwarp ends cleanly"
cell_iwarp_mpa_from_siw_markers_refused() {
  need_jar || return 1; from_siw "$RPING_C3" --markers
  chk "iwarp ended by itself (got $OUR)" isnt "$OUR" none
  chk "siw rping -c failed (got $SIW)" eval '[ "$SIW" != 0 ] && [ "$SIW" != none ]'
  chk "siw rping -c: REJECTED" g_has rc "REJECTED"
  chk "capture" psum mpa=accept reply.m=1 siw_count=0 ours_count=0 siw_close="FIN|RST"
  verdict "$(mpa_line); siw closed ($(jget siw_close)) without an FPDU; siw: $(glog rc | grep -m1 REJECTED | cut -c1-60); iwarp exit $OUR"
}

# ---------------------------------------------------------------------------------- errors across the wire
# to-siw: iwarp commits the error (--inject), siw detects it, sends its Terminate (bit-mirrored, FINDINGS F1)
# and closes; iwarp must report siw's Layer/EType/Code. from-siw: iwarp makes siw commit it (--inject
# peer-*), detects it and sends its own Terminate (RFC layout, errors.md §5).
# siw's kernel log since a mark: siw reports every Terminate it receives ("siw: got TERMINATE. layer L, type
# E, code C"), read with its own bit-mirrored bitfields (FINDINGS F1)
dmesg_mark() { DMARK=$(G "dmesg | wc -l"); }
dmesg_new() { G "dmesg | tail -n +$(( ${DMARK:-0} + 1 ))"; }
siw_got_term() { dmesg_new | grep -m1 'got TERMINATE' | sed 's/^\[[^]]*\] //'; }
# siw's rping did not get through its 3 pings (its exit status is no help: rping -c exits 0 after a disconnect)
siw_rping_stopped() { g_has "$1" "wait for .* state 10|error|fail"; }
err_to_siw() {   # err_to_siw INJECT L/E/C MDR [hangs]
  need_jar || return 1
  if [ "${4:-}" = hangs ]; then FROM_SIW_GUEST_SECS=12 from_siw "$RPING_C3" --inject "$1"; else from_siw "$RPING_C3" --inject "$1"; fi
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp reports received 0x$(echo "$2" | sed 's#/#/0x#g')" iw_has s "received 0x$(echo "$2" | sed 's#/#/0x#g')"
  if [ "${4:-}" = hangs ]; then
    # FINDINGS M21: rping's teardown joins its CQ thread, which only ends on a completion, and after siw's
    # Terminate for a Send it had no receive for, a completion often never reaches rping's CQ: rping -c
    # waits until killed (124); about as often one does and it exits by itself (0).
    chk "siw rping -c hung in its teardown until killed (124) or ended by itself (0) (got $SIW)" eval '[ "$SIW" = 124 ] || [ "$SIW" = 0 ]'
  else
    chk "siw rping -c ended by itself (got $SIW)" isnt "$SIW" none
    chk "siw rping -c ended by itself, not by the timeout (got $SIW)" isnt "$SIW" 124
  fi
  chk "siw rping -c stopped short" siw_rping_stopped rc
  chk "capture" psum mpa=accept siw_term="$2" siw_term_mdr="$3" siw_term_layout=bit-mirrored ours_term=none "siw_close=FIN|RST"
  verdict "siw's Terminate ctrl $(jget siw_term_ctrl) = $(jget siw_term) MDR $(jget siw_term_mdr), then $(jget siw_close); iwarp: $(iw_line s 'failed status|terminated'); siw rping -c: $(glog rc | grep -m1 -E 'wait for|error|fail' | cut -c1-50)"
}
err_from_siw() {   # err_from_siw client|server INJECT L/E/C MDR
  need_jar || return 1
  dmesg_mark
  if [ "$1" = client ]; then to_siw --inject "$2"; else from_siw "$RPING_C3" --inject "$2"; fi
  local t=c g=rs; [ "$1" = server ] && { t=s; g=rc; }
  local got; got=$(siw_got_term)
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp reports sent 0x$(echo "$3" | sed 's#/#/0x#g')" iw_has $t "sent 0x$(echo "$3" | sed 's#/#/0x#g')"
  chk "siw ended by itself (got $SIW)" isnt "$SIW" none
  chk "siw's rping stopped short" siw_rping_stopped $g
  chk "siw's kernel log reports our Terminate" eval '[ -n "$got" ]'
  # we close after our Terminate: FIN, or RST when siw's next FPDUs are still unread in our socket (then siw,
  # which read our Terminate before the RST, has no FIN to send)
  chk "capture" psum mpa=accept ours_term="$3" ours_term_mdr="$4" ours_term_layout=rfc5040 siw_term=none "ours_close=FIN|RST"
  verdict "our Terminate ctrl $(jget ours_term_ctrl) = $(jget ours_term) MDR $(jget ours_term_mdr) (RFC 5040 layout), then $(jget ours_close); iwarp: $(iw_line $t 'failed status|terminated'); siw: \"${got:-nothing in dmesg}\" (its mirrored reading of our control word), rping: $(glog $g | grep -m1 -E 'wait for|error|fail' | cut -c1-50)"
}
cell iwarp-err-write-invalid-stag-to-siw iwarp 60 "error: iwarp rping -s --inject bad-stag (RDMA Write to a wrong STag) -> siw's Terminate 1/1/00 reported by iwarp"
cell_iwarp_err_write_invalid_stag_to_siw() { err_to_siw bad-stag 1/1/00 110; }
cell iwarp-err-write-invalid-stag-from-siw iwarp 60 "error: iwarp rping -c --inject peer-bad-stag -> siw's RDMA Write hits an invalid STag; iwarp sends Terminate 1/1/00"
cell_iwarp_err_write_invalid_stag_from_siw() { err_from_siw client peer-bad-stag 1/1/00 110; }
cell iwarp-err-read-beyond-region-to-siw iwarp 60 "error: iwarp rping -s --inject read-beyond (Read past siw's region) -> siw's Terminate 0/1/01 reported by iwarp"
cell_iwarp_err_read_beyond_region_to_siw() { err_to_siw read-beyond 0/1/01 111; }
cell iwarp-err-read-beyond-region-from-siw iwarp 60 "error: iwarp rping -c --inject peer-read-beyond -> siw's Read runs past our region; iwarp sends Terminate 0/1/01"
cell_iwarp_err_read_beyond_region_from_siw() { err_from_siw client peer-read-beyond 0/1/01 111; }
cell iwarp-err-send-no-recv-to-siw iwarp 60 "error: iwarp rping -s --inject no-recv (a 2nd go-ahead Send) -> siw's Terminate 1/2/02 reported by iwarp"
cell_iwarp_err_send_no_recv_to_siw() { err_to_siw no-recv 1/2/02 110 hangs; }
cell iwarp-err-send-no-recv-from-siw iwarp 60 "error: iwarp rping -s --inject peer-no-recv (receive not re-posted) -> siw's Send finds none; iwarp sends Terminate 1/2/02"
cell_iwarp_err_send_no_recv_from_siw() { err_from_siw server peer-no-recv 1/2/02 110; }

# ---------------------------------------------------------------------------------- the accept race
# siw sends its MPA Reply before it hands the socket to the queue pair (siw_accept(): siw_send_mpareqrep(),
# then siw_qp_socket_assoc() / siw_sk_assign_rtr_upcalls()); an FPDU that arrives in between is not read until
# more octets come (FINDINGS M15). The window is tiny and our Initiator rarely hits it (3 of ~300 connections
# in the lab), so the lab's siw.ko can widen it (siwlab_accept_race_ms, build.sh): then every first FPDU is
# stranded, and the cell shows iwarp's first-FPDU nudge (ConnectOptions.firstFpduNudge, --nudge) recovering it.
cell iwarp-accept-race-nudge iwarp 120 "siw accept race (FINDINGS M15) widened to 200 ms by the lab: without --nudge the first FPDU is stranded and the connection hangs; with --nudge 300 every connection (client-server, p2p Write and Read RTR) completes"
cell_iwarp_accept_race_nudge() {
  need_jar || return 1
  siwparam siwlab_accept_race_ms=200 || return $?
  local i=0 mode rc nudged=0 out=""
  cap_start "tcp port 7174"
  gstart rs 30 "rping -s -a $GIP -C 1 -S 64"
  gwait_listen 7174 || note "rping -s did not listen"
  iw c0 6 rping -c -a "$GIP" -C 1 -S 64 -V --nudge 0; rc=$?
  chk "control: without the nudge the first FPDU stays stranded (iwarp stopped after 6 s, got $rc)" is "$rc" 124
  gstop rs
  for mode in "" "--p2p write" "--p2p read"; do
    i=$((i+1))
    gstart rs 30 "rping -s -a $GIP -C 1 -S 64"
    gwait_listen 7174 || note "rping -s did not listen"
    # shellcheck disable=SC2086
    iw "c$i" 30 rping -c -a "$GIP" -C 1 -S 64 -V --nudge 300 $mode; rc=$?
    chk "${mode:-client-server}: iwarp exit 0 (got $rc)" is "$rc" 0
    chk "${mode:-client-server}: siw rping -s exit 0" is "$(gwait rs 5)" 0
    iw_has "c$i" "first-FPDU nudge" && nudged=$((nudged+1))
  done
  cap_stop
  for i in 1 2 3; do
    PCONN=$i chk "capture $i: one zero-length Write more than the RTR" psum mpa=accept $no_terms \
      ours_zero_len_writes="$( [ $i = 2 ] && echo 2 || echo 1)"
    out="$out $(jget ours_ops | cut -d, -f1-2)"
  done
  chk "the nudge was needed and sent in all 3 connections (got $nudged)" is "$nudged" 3
  verdict "siwlab_accept_race_ms=200: without the nudge the connection hung; with --nudge 300 all 3 completed, each after one zero-length Write (first FPDUs:$out)"
}

# ---------------------------------------------------------------------------------- performance
# These cells predate iwarp perf's perftest exchange (the perftest-* cells below pair it with siw's perftest); the
# host<->guest figures here come from rping, the one streaming-free exchange both stacks speak: one round moves
# -S octets by RDMA Read and -S octets back by RDMA Write, plus four 16-octet Sends. The same rping between
# two siw endpoints inside the guest is the like-for-like reference; perftest's siw<->siw figures
# (siw-perftest-*) are printed beside them. All under TCG: read them as ratios, not as absolute speeds.
rping_rate() {   # rping_rate FILE : "rounds/s MB/s" from lines "n=N seconds=T" (two runs: 20 and N2 rounds)
  awk '/^n=/{split($1,a,"="); split($2,b,"="); n[++k]=a[2]; t[k]=b[2]}
       END{ if (k==2 && t[2]>t[1]) { r=(n[2]-n[1])/(t[2]-t[1]); printf "%.0f rounds/s, %.1f MB/s", r, r*2*S/1e6 } else print "?" }' S="$2" "$1"
}
guest_rping_rate() {   # SIZE ROUNDS : siw<->siw rping in the guest (wall clock, two runs to cancel the setup)
  G "one() {
       timeout 120 rping -s -a $GIP -C \$1 -S $1 > /tmp/gr-s.log 2>&1 < /dev/null & SP=\$!
       for i in \$(seq 100); do ss -Hltn '( sport = :7174 )' | grep -q . && break; sleep 0.05; done
       T0=\$(date +%s.%N); timeout 120 rping -c -a $GIP -C \$1 -S $1 > /tmp/gr-c.log 2>&1 < /dev/null; RC=\$?
       T1=\$(date +%s.%N); wait \$SP
       echo \"n=\$1 seconds=\$(echo \"\$T1 - \$T0\" | bc -l 2>/dev/null || awk \"BEGIN{print \$T1-\$T0}\") rc=\$RC\"
     }
     one 20; one $2"
}
cell siw-rping-rate sanity 150 "reference figure: siw<->siw rping inside the guest (-S 65535 and -S 64), rounds/s"
cell_siw_rping_rate() {
  guest_rping_rate 65535 220 > "$CDIR/$CELL.big" 2>&1
  guest_rping_rate 64 1020 > "$CDIR/$CELL.small" 2>&1
  cat "$CDIR/$CELL.big" "$CDIR/$CELL.small" > "$CDIR/$CELL.guest.txt"
  grep -q 'rc=[1-9]' "$CDIR/$CELL.guest.txt" && { detail "an rping failed"; return 1; }
  detail "siw<->siw in the guest: -S 65535: $(rping_rate "$CDIR/$CELL.big" 65535); -S 64: $(rping_rate "$CDIR/$CELL.small" 64)"
}
cell tcp-rate sanity 90 "reference figure: plain TCP over the tap, 32 MiB each way (nc), the ceiling of any iWARP stack on this path"
cell_tcp_rate() {
  local t0 t1 up down n=33554432
  gstart nc 60 "nc -l $GIP 5002 > /dev/null"
  G "for i in \$(seq 50); do ss -Hltn '( sport = :5002 )' | grep -q . && exit 0; sleep 0.1; done; exit 1" || return 1
  t0=$(date +%s.%N); head -c $n /dev/zero | timeout 60 nc -N "$GIP" 5002 || return 1; gwait nc 30 > /dev/null; t1=$(date +%s.%N)
  up=$(awk -v a="$t0" -v b="$t1" -v n=$n 'BEGIN{printf "%.0f", n/1e6/(b-a)}')
  timeout 60 nc -l "$HIP" 5003 > /dev/null & local pid=$!
  sleep 0.3
  t0=$(date +%s.%N); G "head -c $n /dev/zero | timeout 60 nc -N $HIP 5003" || { kill $pid 2>/dev/null; return 1; }
  wait $pid; t1=$(date +%s.%N)
  down=$(awk -v a="$t0" -v b="$t1" -v n=$n 'BEGIN{printf "%.0f", n/1e6/(b-a)}')
  detail "plain TCP over the tap (nc, 32 MiB, wall clock): host->guest $up MB/s, guest->host $down MB/s"
}
iw_rping_rate() {   # iw_rping_rate client|server SIZE ROUNDS : the same timing with iwarp on the host side
  local role=$1 s=$2 n=$3 k t0 t1
  : > "$CDIR/$CELL.rate"
  for k in 20 "$n"; do
    if [ "$role" = client ]; then
      gstart rs 120 "rping -s -a $GIP -C $k -S $s"
      gwait_listen 7174 || note "rping -s did not listen"
      t0=$(date +%s.%N)
      iw "c$k" 120 rping -c -a "$GIP" -C "$k" -S "$s" -V || FAILS+=("iwarp rping -c -C $k")
      t1=$(date +%s.%N)
      [ "$(gwait rs 10)" = 0 ] || FAILS+=("siw rping -s -C $k")
    else
      iw_bg "s$k" 120 7174 rping -s -a "$HIP" -S "$s"
      t0=$(date +%s.%N)
      gstart rc 120 "rping -c -a $HIP -C $k -S $s -V"
      [ "$(gwait rc 120)" = 0 ] || FAILS+=("siw rping -c -C $k")
      t1=$(date +%s.%N)
      iw_wait "s$k" 10; [ "$IWRC" = 0 ] || FAILS+=("iwarp rping -s")
    fi
    echo "n=$k seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" >> "$CDIR/$CELL.rate"
  done
  cat "$CDIR/$CELL.rate" >> "$CDIR/$CELL.notes"
}
perf_cell() {   # perf_cell client|server SIZE ROUNDS "what moves" REF_CELL
  need_jar || return 1
  IW_JAVA_OPTS=${IWARP_MATRIX_PERF_JAVA_OPTS:-}
  iw_rping_rate "$1" "$2" "$3"
  verdict "iwarp $1 <-> siw, rping -S $2 ($4): $(rping_rate "$CDIR/$CELL.rate" "$2") -- beside tcp-rate (the path's TCP ceiling), siw-rping-rate and $5 (wall clock, TCG guest; the JVM start-up cancels out)"
}
cell iwarp-perf-write iwarp 150 "throughput host->guest by RDMA Write: iwarp rping -s (writes 64 KiB into siw's buffer per round, reads 64 KiB) <- siw rping -c; beside siw-rping-rate and siw-perftest-write"
cell_iwarp_perf_write() { perf_cell server 65535 220 "iwarp RDMA Writes to siw, RDMA Reads from siw" siw-perftest-write; }
cell iwarp-perf-read iwarp 150 "throughput host->guest by RDMA Read: iwarp rping -c (siw reads 64 KiB from us per round, writes it back) -> siw rping -s; beside siw-rping-rate and siw-perftest-read"
cell_iwarp_perf_read() { perf_cell client 65535 220 "siw RDMA Reads from iwarp, RDMA Writes to iwarp" siw-perftest-read; }
cell iwarp-perf-send iwarp 150 "message rate: iwarp rping -c -S 64 (4 Sends of 16 octets + 64-octet Read and Write per round) -> siw rping -s; beside siw-rping-rate and siw-perftest-send"
cell_iwarp_perf_send() { perf_cell client 64 1020 "Send ping-pong, 4 Sends per round" siw-perftest-send; }

# ---------------------------------------------------------------------------------- perftest both ways
# iwarp perf speaks perftest 4.5+0.17's control exchange (docs/perftest-wire.md): siw's ib_*_bw -R / ib_*_lat -R
# against it, both roles, each test at 64 B, 4 KiB and 64 KiB, PT_ITERS iterations, CRC as iwarp's default (on).
# Checks: both exit 0; the figures agree (Write/Read bandwidth: the server prints the client's report, so both lines
# must be the same; Send: both measure, so both lines must have the size and the iteration count; latency: the
# client's line); the test connection of the capture: accepted, no Terminate.
PT_ITERS=${PT_ITERS:-100}
pt_line() {   # pt_line FILE : perftest's first result line after the column header, blanks squeezed
  # (a log line of iwarp's, "[thread] INFO ...", may come between)
  awk 'p && NF && !/^\[/ { print; exit } /#bytes/ { p = 1 }' "$1" 2>/dev/null | sed 's/^[[:space:]]*//; s/[[:space:]]\{1,\}/ /g'
}
pt_to_siw() {   # pt_to_siw TOOL "OUR VERB ARGS" SIZE : iwarp perf (client) -> siw TOOL -R (server)
  local tool=$1 verb=$2 size=$3
  gstart pts 80 "$tool -R -d siw0 -s $size -n $PT_ITERS -F"
  gwait_listen 18515 || note "siw $tool did not listen on 18515"
  cap_start "tcp port 18515"
  # shellcheck disable=SC2086
  iw c 80 perf $verb "$GIP" -s "$size" -n "$PT_ITERS"; OUR=$?
  SIW=$(gwait pts 20); [ "$SIW" = none ] && gstop pts
  cap_stop
  glog pts > "$CDIR/$CELL.siw.txt"
  PT_SERVER="$CDIR/$CELL.siw.txt"; PT_CLIENT="$CDIR/$CELL.iw-c.out"
}
pt_from_siw() {   # pt_from_siw TOOL "OUR VERB ARGS" SIZE : siw TOOL -R (client) -> iwarp perf (server)
  local tool=$1 verb=$2 size=$3
  cap_start "tcp port 18515"
  # shellcheck disable=SC2086
  iw_bg s 80 18515 perf $verb -s "$size" -n "$PT_ITERS" || note "iwarp perf did not listen on 18515"
  gstart ptc 80 "$tool -R -d siw0 -s $size -n $PT_ITERS -F $HIP"
  SIW=$(gwait ptc 80)
  iw_wait s 20; OUR=$IWRC
  cap_stop
  glog ptc > "$CDIR/$CELL.siw.txt"
  PT_SERVER="$CDIR/$CELL.iw-s.out"; PT_CLIENT="$CDIR/$CELL.siw.txt"
}
pt_cell() {   # pt_cell to|from TOOL "OUR VERB ARGS" SIZE : one pairing, checked
  local dir=$1 tool=$2 verb=$3 size=$4 c s
  need_jar || return 1
  "pt_${dir}_siw" "$tool" "$verb" "$size"
  chk "iwarp exit 0 (got $OUR)" is "$OUR" 0
  chk "siw $tool exit 0 (got $SIW)" is "$SIW" 0
  c=$(pt_line "$PT_CLIENT"); s=$(pt_line "$PT_SERVER")
  chk "the client printed $size octets x $PT_ITERS (got '$c')" eval '[[ "$c" == "$size $PT_ITERS "* ]]'
  case $tool in
    ib_write_bw|ib_read_bw) chk "the server printed the client's line (client '$c', server '$s')" is "$s" "$c" ;;
    ib_send_bw) chk "the server printed $size octets x $PT_ITERS (got '$s')" eval '[[ "$s" == "$size $PT_ITERS "* ]]' ;;
  esac
  # the last connection of the capture is the test connection (the client's failed tries come before it)
  PCONN=-1 chk "capture: test connection accepted, no Terminate" psum mpa=accept siw_term=none ours_term=none
  verdict "iwarp perf $verb ($( [ "$dir" = to ] && echo client || echo server)) with siw $tool -R -s $size -n $PT_ITERS: both exit 0; client: $c; server: ${s:-(no table: the ${tool} server only closes)}"
}
for t in "ib_write_bw:write" "ib_read_bw:read" "ib_send_bw:send" "ib_read_lat:read --latency" \
         "ib_send_lat:send --latency" "ib_write_lat:write --latency"; do
  tool=${t%%:*}; verb=${t#*:}; short=${tool#ib_}; short=${short//_/-}
  for s in 64 4096 65536; do
    cell "perftest-$short-to-siw-s$s" iwarp 100 "iwarp perf $verb $GIP -s $s -> siw $tool -R (server): both exit 0, figures agree"
    eval "cell_perftest_${short//-/_}_to_siw_s$s() { pt_cell to $tool '$verb' $s; }"
    [ "$tool" = ib_write_lat ] && continue   # the other way round is one cell, below
    cell "perftest-$short-from-siw-s$s" iwarp 100 "siw $tool -R $HIP -s $s (client) -> iwarp perf $verb (server): both exit 0, figures agree"
    eval "cell_perftest_${short//-/_}_from_siw_s$s() { pt_cell from $tool '$verb' $s; }"
  done
done
# ib_write_lat's server writes first; an MPA Responder may not send before the Initiator's first FPDU (RFC 5044 §7.1.2
# rule 4, MPA-38), which siw does not hold itself to (FINDINGS M14) and we do: with siw's client, which waits for the
# server's Write, our Writes stay held. One size shows it (each size would show the same); iwarp gives up after 30 s.
cell perftest-write-lat-from-siw-s64 iwarp 100 "siw ib_write_lat -R $HIP (client) -> iwarp perf write --latency (server): our Writes held by RFC 5044 rule 4, iwarp says so"
cell_perftest_write_lat_from_siw_s64() {
  need_jar || return 1
  cap_start "tcp port 18515"
  iw_bg s 60 18515 perf write --latency -s 64 -n "$PT_ITERS" || note "iwarp perf did not listen on 18515"
  gstart ptc 60 "ib_write_lat -R -d siw0 -s 64 -n $PT_ITERS -F $HIP"
  iw_wait s 50; OUR=$IWRC
  SIW=$(gwait ptc 3); [ "$SIW" = none ] && gstop ptc
  cap_stop
  glog ptc > "$CDIR/$CELL.siw.txt"
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp names the held Writes and RFC 5044 §7.1.2 rule 4" iw_has s "held.*RFC 5044 §7.1.2 rule 4"
  PCONN=-1 chk "capture: test connection accepted, no FPDU from iwarp on it, no Terminate" psum mpa=accept ours_count=0 siw_term=none
  verdict "as RFC 5044 requires of a Responder, iwarp sent nothing on the test connection before siw's client did, and siw's ib_write_lat client sends nothing before the server's first Write: iwarp exit $OUR ($(iw_line s 'iwarp perf' | cut -c1-100)...), siw's client ${SIW/none/stopped}"
}
pt_atomic_cell() {   # pt_atomic_cell to|from TOOL "OUR VERB" : siw 6.1 has no atomics; both ends must say so and end
  local dir=$1 tool=$2 verb=$3
  need_jar || return 1
  "pt_${dir}_siw" "$tool" "$verb" 8
  chk "iwarp ended (exit $OUR)" isnt "$OUR" none
  chk "siw $tool ended (exit $SIW)" isnt "$SIW" none
  if [ "$dir" = to ]; then
    chk "iwarp reports its failed atomic" iw_has c "completion failed on a test queue pair"
  else
    chk "siw's $tool cannot post an atomic" grep -q "Couldn't post send" "$PT_CLIENT"
  fi
  verdict "siw 6.1 has no atomics (its device says so, its perftest cannot post one): the control exchange pairs, then iwarp exit $OUR, siw exit $SIW -- $( [ "$dir" = to ] && iw_line c 'iwarp perf' || grep -m1 "Couldn't post" "$PT_CLIENT")"
}
for t in "ib_atomic_bw:atomic" "ib_atomic_lat:atomic --latency"; do
  tool=${t%%:*}; verb=${t#*:}; short=${tool#ib_}; short=${short//_/-}
  cell "perftest-$short-to-siw" iwarp 100 "iwarp perf $verb $GIP -> siw $tool -R: siw has no atomics, both end with it said"
  eval "cell_perftest_${short//-/_}_to_siw() { pt_atomic_cell to $tool '$verb'; }"
  cell "perftest-$short-from-siw" iwarp 100 "siw $tool -R $HIP -> iwarp perf $verb: siw cannot post atomics, both end"
  eval "cell_perftest_${short//-/_}_from_siw() { pt_atomic_cell from $tool '$verb'; }"
done

# ---------------------------------------------------------------------------------- iwarp conformance against siw
# `iwarp conformance` (tools/.../conformance) checks siw rule by rule against RFC 5044/6581/5041/5040/7306, each
# check on a fresh connection. With --profile siw the deviations FINDINGS.md documents come out as "known" checks,
# each problem tagged (Profile.SIW names the finding); a cell passes iff the tool exits 0 (no check failed) AND the
# known deviations it measured include every tag the cell expects. Evidence: $CELL.json (the tool's JSON, one
# "runs" entry per group), $CELL.<group>.junit.xml, $CELL.pcap (every connection).
# siw's rping -s -P is the peer, one per check group, each on a port of its own (7181...): siw 6.1 can lose a
# listener when our close meets its 5 s MPA timeout (FINDINGS M23; --timeout 8000 keeps the checks clear of that
# timeout, but not always), and a lost listener keeps its port bound until the guest reboots. A group whose
# listener was lost mid-run runs once more on a fresh port; a cell that saw siw's refcount warning asks for a
# fresh guest before the next cell.
CONF_WAIT_MS=${SIWLAB_CONF_TIMEOUT_MS:-8000}
CONF_PORT=7180
# conf_run TAG ARGS... : the tool against $GIP:$CONF_PORT (JSON to $CELL.TAG.json, JUnit XML to $CELL.TAG.junit.xml);
# sets CONFRC
conf_run() {
  local tag=$1; shift
  echo "\$ iwarp conformance --target $GIP:$CONF_PORT --role responder --app rping --timeout $CONF_WAIT_MS $*" >> "$CDIR/$CELL.iwarp.txt"
  timeout -k 3 "${CONF_SECS:-200}" java $IW_JAVA_OPTS -jar "$IWARP_JAR" conformance --target "$GIP:$CONF_PORT" \
    --role responder --app rping --timeout "$CONF_WAIT_MS" --json --junit-xml "$CDIR/$CELL.$tag.junit.xml" "$@" \
    > "$CDIR/$CELL.$tag.json" 2> "$CDIR/$CELL.$tag.err"
  CONFRC=$?
  echo "  (exit status $CONFRC)" >> "$CDIR/$CELL.iwarp.txt"
  sed 's/^/  /' "$CDIR/$CELL.$tag.err" >> "$CDIR/$CELL.iwarp.txt"; rm -f "$CDIR/$CELL.$tag.err"
}
# conf_groups "GROUPS" ARGS... : each group against its own rping -s -P; merges the JSONs into $CELL.json; CONFRCS
# lists the exit statuses
conf_groups() {
  local groups=$1 g n=0 try ok; shift
  CONFRCS=""
  need_jar || return 1
  dmesg_mark
  cap_start "tcp portrange 7181-7199"
  for g in $groups; do
    n=$((n + 1))
    for try in 1 2; do
      CONF_PORT=$((CONF_PORT + 1))
      gstart "rsp$CONF_PORT" 300 "rping -s -P -a $GIP -p $CONF_PORT -S 64"
      gwait_listen "$CONF_PORT" || note "rping -s -P did not listen on $CONF_PORT"
      conf_run "g$n" --only "$g" "$@"
      ok=1; G "ss -Hltn '( sport = :$CONF_PORT )' | grep -q ." || ok=0
      gstop "rsp$CONF_PORT"
      if [ "$CONFRC" != 0 ] && grep -q 'cannot connect to' "$CDIR/$CELL.g$n.json" && [ $try = 1 ]; then
        note "group $g: siw lost its listener on $CONF_PORT during the run (FINDINGS M23); the group runs again on a fresh port"
        mv "$CDIR/$CELL.g$n.json" "$CDIR/$CELL.g$n.lost-listener.json"
        continue
      fi
      [ $ok = 1 ] || note "group $g: siw's listener on $CONF_PORT was gone at the end (FINDINGS M23)"
      break
    done
    CONFRCS="$CONFRCS $CONFRC"
  done
  cap_stop
  if dmesg_new | grep -q 'siw_cep_put\|refcount_t'; then
    note "siw's kernel log shows its cep refcount warning (FINDINGS M23): the next cell gets a fresh guest"
    dmesg_new | grep -A3 'WARNING' | head -20 >> "$CDIR/$CELL.notes"
    touch "$CDIR/$CELL.restart-lab"
  fi
  python3 - "$CDIR/$CELL.json" $(for ((g = 1; g <= n; g++)); do echo "$CDIR/$CELL.g$g.json"; done) <<'PY'
import json, sys
out = {"runs": [], "checks": [], "totals": {"checks": 0, "passed": 0, "failed": 0, "known": 0, "skipped": 0}}
for f in sys.argv[2:]:
    try:
        d = json.load(open(f))
    except Exception as e:
        out["runs"].append({"file": f, "error": str(e)}); out["totals"]["failed"] += 1; continue
    out["runs"].append({k: d[k] for k in ("target", "role", "app", "profile", "ms", "totals")})
    out["checks"] += d["checks"]
    for k in out["totals"]:
        out["totals"][k] += d["totals"][k]
json.dump(out, open(sys.argv[1], "w"), indent=1)
PY
  for ((g = 1; g <= n; g++)); do rm -f "$CDIR/$CELL.g$g.json"; done
}
# conf_eval JSON "TAG..." : one line (counts, known tags); exit 0 iff no check failed and every TAG was measured as
# a known deviation. With STRICT_OF=JSON2 (a --profile siw run): the failed checks of JSON must be exactly the
# known checks of JSON2.
conf_eval() {
  python3 - "$1" "$2" "${STRICT_OF:-}" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("no JSON from iwarp conformance (%s)" % e); sys.exit(1)
t = d["totals"]
ids = lambda doc, st: sorted((c["id"] for c in doc["checks"] if c["status"] == st), key=lambda i: [int(x) for x in i.split(".")])
known = sorted({p["deviation"] for c in d["checks"] if c["status"] == "known" for p in c["problems"] if p["deviation"]})
ok = True
line = "%d checks: %d passed, %d known, %d skipped, %d failed" % (t["checks"], t["passed"], t["known"], t["skipped"], t["failed"])
if sys.argv[3]:
    want, got = ids(json.load(open(sys.argv[3])), "known"), ids(d, "failed")
    extra, missing = [i for i in got if i not in want], [i for i in want if i not in got]
    ok = not extra and not missing
    line += ("; the failed checks are exactly the %d that --profile siw marks known" % len(want)) if ok else \
        "; MISMATCH with the --profile siw run: failed only here %s, known there but not failed here %s" % (extra, missing)
else:
    missing = [x for x in sys.argv[2].split() if x not in known]
    failed = [c for c in d["checks"] if c["status"] == "failed"]
    if failed:
        line += "; FAILED: " + "; ".join("%s %s" % (c["id"], (c["actual"] or "")[:100]) for c in failed)
        ok = False
    if missing:
        line += "; expected deviations NOT measured: " + " ".join(missing)
        ok = False
    line += "; known deviations measured: " + " ".join(known)
print(line)
sys.exit(0 if ok else 1)
PY
}
all_zero() { local r; for r in $1; do [ "$r" = 0 ] || return 1; done; }
# conf_cell "GROUPS" "EXPECTED TAGS" ARGS... : --profile siw over the groups; the cell's verdict
conf_cell() {
  local groups=$1 want=$2 line rc; shift 2
  conf_groups "$groups" --profile siw "$@" || return 1
  line=$(conf_eval "$CDIR/$CELL.json" "$want"); rc=$?
  all_zero "$CONFRCS" || { line="iwarp conformance exit statuses:$CONFRCS; $line"; rc=1; }
  detail "responder (rping -s -P), --profile siw: $line"
  return $rc
}
# check 1.18 (a Request cut short by a FIN) is where siw loses its listener (M23): it gets a listener of its own
CONF_GROUPS_RESPONDER="$(seq -s, -f 1.%g 1 17) 1.18 $(seq -s, -f 1.%g 19 29) 3 4 5 6"
# the deviations FINDINGS F/R/M/C document (Profile.SIW), as the checks measure and tag them
CONF_TAGS_RESPONDER="mirrored-control-word segment-length-is-payload no-header-copied copied-msn-differs too-long-as-no-buffer ird-ord-3fff-clamped reply-echoes-reserved-bits private-data-limit-256 terminates-bad-first-fpdu close-without-terminate accepts-rev-0 split-fpdu-crc-error short-segment-stalls local-catastrophic opcode-decides-layout answers-bad-version-terminate"
cell conformance-siw-responder iwarp 300 "iwarp conformance --role responder --app rping --profile siw against siw's rping -s -P (groups 1, 3-6): exit 0, and the known deviations include FINDINGS F/R's"
cell_conformance_siw_responder() { conf_cell "$CONF_GROUPS_RESPONDER" "$CONF_TAGS_RESPONDER"; }
cell conformance-siw-responder-strict iwarp 300 "iwarp conformance --role responder --profile strict against siw: the checks that fail are exactly those --profile siw marked known (conformance-siw-responder)"
cell_conformance_siw_responder_strict() {
  local siw="$CDIR/conformance-siw-responder.json" line rc r
  [ -s "$siw" ] || { detail "needs the results of conformance-siw-responder (run it first)"; return $NOT_RUN; }
  conf_groups "$CONF_GROUPS_RESPONDER" --profile strict || return 1
  line=$(STRICT_OF="$siw" conf_eval "$CDIR/$CELL.json" ""); rc=$?
  for r in $CONFRCS; do [ "$r" = 0 ] || [ "$r" = 1 ] || { line="iwarp conformance exit statuses:$CONFRCS; $line"; rc=1; break; }; done
  detail "responder, --profile strict: $line"
  return $rc
}
cell conformance-siw-responder-p2p iwarp 120 "iwarp conformance --only 1 (MPA startup) --profile siw against rping -s -P with siw peer_to_peer=Y"
cell_conformance_siw_responder_p2p() {
  siwparam peer_to_peer=Y || return $?
  conf_cell "${CONF_GROUPS_RESPONDER%% 3 *}" "reply-echoes-reserved-bits ird-ord-3fff-clamped private-data-limit-256 accepts-rev-0"
}

# ---------------------------------------------------------------------------------- last: may crash siw's kernel
# RFC 6581 §9.3 (MPA-74): an Initiator that can send none of the RTRs the Reply allows sends Terminate
# 2/0/07 as its first FPDU. siw 6.1 as a peer-to-peer Responder then reports a CLOSE to iw_cm while the
# connection is not yet ESTABLISHED (siw raises ESTABLISHED only on the RTR), and iw_cm's close handler
# BUG()s ("kernel BUG at drivers/infiniband/core/iwcm.c:969", FINDINGS M16): iw_cm's work queue dies and
# every later connection of that guest hangs. So this cell runs last and, if the guest crashed, asks
# run-matrix.sh to reboot it before any further cell. It checks what iwarp does (the RFC's Terminate, in
# the RFC layout, and a clean report) and records what siw did.
cell iwarp-mpa-to-siw-p2p-send-rtr iwarp 60 "MPA: iwarp --p2p send -> siw answers C (not offered, FINDINGS M6): iwarp sends Terminate 2/0/07 as its first FPDU and reports it (siw 6.1 then BUGs in iw_cm: M16)"
cell_iwarp_mpa_to_siw_p2p_send_rtr() {
  if [ "${SIWLAB_NET:-tap}" = remote ] && [ "${SIWLAB_ALLOW_KERNEL_BUG:-0}" != 1 ]; then
    detail "not run against a real siw host: siw 6.1 hits a kernel BUG in iw_cm here (FINDINGS M16); SIWLAB_ALLOW_KERNEL_BUG=1 runs it"
    return $NOT_RUN
  fi
  need_jar || return 1; dmesg_mark; SIWWAIT=1 to_siw --p2p send
  chk "iwarp exit 1 (got $OUR)" is "$OUR" 1
  chk "iwarp names 0x2/0x0/0x07" iw_has c "0x2/0x0/0x07"
  chk "capture" psum mpa=accept request.enh.b=1 request.enh.c=0 reply.enh.c=1 reply.enh.b=0 ours_first=terminate \
    ours_term=2/0/07 ours_term_layout=rfc5040 ours_term_mdr=000 siw_count=0
  local siw="siw rping -s exit $SIW"
  if dmesg_new | grep -q 'kernel BUG at drivers/infiniband/core/iwcm.c'; then
    siw="siw: $(siw_got_term), then $(dmesg_new | grep -m1 'kernel BUG at' | sed 's/^\[[^]]*\] //') (the guest is rebooted before any further cell)"
    G "dmesg | grep -B2 -A12 'kernel BUG at'" >> "$CDIR/$CELL.notes" 2>&1
    touch "$CDIR/$CELL.restart-lab"
  fi
  verdict "siw chose C ($(mpa_line)); our first FPDU: Terminate $(jget ours_term) ctrl $(jget ours_term_ctrl) (RFC layout); iwarp: $(iw_line c 'connect error'); $siw"
}

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
  G 'cd /sys/module/siw/parameters && echo N > mpa_crc_required && echo N > mpa_crc_strict && echo N > peer_to_peer && echo 2 > mpa_version && echo N > try_gso' 2>/dev/null || true
}

TDPID=""
cap_start() {   # cap_start FILTER : tcpdump on the tap (or SIWLAB_CAPTURE_IF) into $CDIR/$CELL.pcap
  local ifc=${SIWLAB_CAPTURE_IF:-}
  [ "${SIWLAB_NET:-tap}" = tap ] && ifc=${SIWLAB_CAPTURE_IF:-$SIWLAB_TAP}
  [ -n "$ifc" ] || return 0
  tcpdump -Z root -i "$ifc" -s 0 -U -w "$CDIR/$CELL.pcap" "$1" > "$CDIR/$CELL.tcpdump.log" 2>&1 &
  TDPID=$!
  local i
  for i in $(seq 50); do grep -q 'listening on' "$CDIR/$CELL.tcpdump.log" 2>/dev/null && break; sleep 0.1; done
}
cap_stop() {
  [ -n "$TDPID" ] || return 0
  sleep 0.3
  kill "$TDPID" 2>/dev/null
  wait "$TDPID" 2>/dev/null
  TDPID=""
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
cell term-send-too-long terminate 40 "rdma_server posted one 16-byte receive; we Send 64 bytes -> Terminate"
cell_term_send_too_long() { term_cell 1/2/02 "FIN|RST" vs_server srv 7471 "rdma_server -s $GIP -p 7471" --do send:len=64; }
cell term-send-no-recv terminate 40 "rdma_server posted one receive; two 16-byte Sends in one segment -> Terminate for the 2nd"
cell_term_send_no_recv() { term_cell 1/2/02 "FIN|RST" vs_server srv 7471 "rdma_server -s $GIP -p 7471" --do send:len=16,batch=1 --do send:len=16; }
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

# ==================================================================================== iwarp (Java) cells
# Placeholders until the `iwarp` tool has rping/rdma_client/rdma_server/perf subcommands. Each one
# names the exact command it will run; they are reported as "not run", never as passed.
# (the jar directly, not ./iwarp, which would start a Maven build when the jar is stale)
iwarp_ready() { [ -f "$ROOT/tools/target/iwarp.jar" ] && timeout 20 java -jar "$ROOT/tools/target/iwarp.jar" "$1" --help >/dev/null 2>&1; }
placeholder() {   # placeholder SUBCOMMAND "what will run"
  if iwarp_ready "$1"; then
    detail "TODO: ./iwarp $1 exists now -- implement this cell: $2"
  else
    detail "needs ./iwarp $1 -- will run: $2"
  fi
  return $NOT_RUN
}
for s in 26 64 1024 4096 65535; do
  cell "iwarp-rping-client-s$s" iwarp 120 "iwarp rping -c -V -S $s -C 50 -> siw rping -s"
  eval "cell_iwarp_rping_client_s$s() { placeholder rping \"guest: rping -s -a $GIP -C 50 -S $s; host: ./iwarp rping -c -a $GIP -C 50 -S $s -V\"; }"
  cell "iwarp-rping-server-s$s" iwarp 120 "siw rping -c -V -S $s -C 50 -> iwarp rping -s"
  eval "cell_iwarp_rping_server_s$s() { placeholder rping \"host: ./iwarp rping -s -a $HIP -C 50 -S $s; guest: rping -c -a $HIP -C 50 -S $s -V (exit 0)\"; }"
done
cell iwarp-rdma-client-to-siw iwarp 60 "iwarp rdma_client -> siw rdma_server"
cell_iwarp_rdma_client_to_siw() { placeholder rdma_client "guest: rdma_server -s $GIP; host: ./iwarp rdma_client -s $GIP (end 0)"; }
cell iwarp-rdma-server-from-siw iwarp 60 "siw rdma_client -> iwarp rdma_server"
cell_iwarp_rdma_server_from_siw() { placeholder rdma_server "host: ./iwarp rdma_server -s $HIP; guest: rdma_client -s $HIP (end 0)"; }
for d in to-siw from-siw; do
  for v in crc-off crc-on crc-required-iwarp-only crc-required-siw-only rev1 rev2 p2p-write-rtr p2p-read-rtr p2p-send-rtr \
           ird-ord-combos reject-insufficient-ord reject-private-data markers-refused; do
    if [ $d = to-siw ]; then role="iwarp initiator -> siw rping -s"; else role="siw rping -c -> iwarp responder"; fi
    cell "iwarp-mpa-$d-$v" iwarp 60 "MPA variant $v: $role"
    eval "cell_iwarp_mpa_${d//-/_}_${v//-/_}() { placeholder rping \"MPA variant $v, $role; expected outcome as established for siw in FINDINGS.md\"; }"
  done
done
cell iwarp-err-write-invalid-stag iwarp 60 "iwarp Write to an invalid siw STag -> iwarp reports siw's TERM 1/1/00 cleanly"
cell_iwarp_err_write_invalid_stag() { placeholder rping "./iwarp with a Write to STag 0xdeadbe00 against rping -s; expect a clean error carrying 1/1/00"; }
cell iwarp-err-read-beyond-region iwarp 60 "iwarp Read beyond a siw region -> TERM 0/1/01 reported cleanly"
cell_iwarp_err_read_beyond_region() { placeholder rping "./iwarp Read past rping -c's advertised buffer; expect 0/1/01 with R=1"; }
cell iwarp-err-send-no-recv iwarp 60 "iwarp Send with no receive posted at siw -> TERM 1/2/02 reported cleanly"
cell_iwarp_err_send_no_recv() { placeholder rdma_client "two Sends to rdma_server; expect 1/2/02 for the second"; }
for op in write read send; do
  cell "iwarp-perf-$op" iwarp 120 "iwarp perf $op host<->guest beside ib_${op}_bw -R (siw-perftest-$op)"
  eval "cell_iwarp_perf_$op() { placeholder perf \"./iwarp perf $op host<->guest (against ib_${op}_bw -R -d siw0 in the guest, siw-interop.md J), reported beside siw-perftest-$op\"; }"
done

#!/usr/bin/env python3
"""iwarp_probe.py -- a scripted, host-side iWARP peer for probing Linux soft-iWARP (siw).

Standard library only. It speaks just enough MPA (RFC 5044 / RFC 6581), DDP (RFC 5041) and
RDMAP (RFC 5040) to drive siw into every corner we care about, and it decodes whatever siw sends
back (MPA frames, FPDUs, Terminates) into fields.  It is a lab instrument, not an implementation:
it sends exactly what it is told to, including wrong things.

Modes
  connect HOST PORT   act as MPA Initiator (e.g. against `rping -s`, `rdma_server` in the guest)
  listen  BIND PORT   act as MPA Responder (e.g. for `rping -c -a 10.77.0.1` in the guest)
  decode-pcap FILE    decode a tcpdump capture (Ethernet/IPv4/TCP) into MPA frames and FPDUs
  decode-hex HEX      decode one FPDU / MPA frame given as hex
  selftest            check the encoder/decoder against known values (CRC32c, vectors)

After the MPA exchange the --do actions run in order (see ACTIONS below), then the probe keeps
receiving for --linger seconds (or until the peer closes) and closes (--close fin|rst|none).
Read Requests from the peer are answered automatically from the probe's emulated memory regions;
Writes / Read Responses into them are placed.

ACTIONS (--do NAME[:k=v,k=v...]; values may be expressions over adv_addr, adv_rkey, adv_len --
the fields of the last 16-byte Send received, as rping sends them -- and buf<N>_stag/_va/_len of
the probe's own regions, e.g. to=adv_addr+adv_len-8):
  send      len=N | data=HEX, [msn=auto] [qn=0] [mo=0] [opcode=3] [inv=0] [last=1]
  write     stag=X to=Y len=N | data=HEX [opcode=0] [last=1]
  rreq      sink_stag sink_to size src_stag src_to [msn=auto] [count=1]
  rresp     stag to len | data
  untagged  opcode qn msn [mo] [len|data]      (any untagged message, e.g. opcode=8)
  tagged    opcode stag to [len|data]
  raw       ulpdu=HEX (sent as one FPDU)  |  bytes=HEX (sent as raw TCP bytes, no framing)
  term      layer etype code [m d r]            (RFC 5040 layout Terminate)
  rtr       kind=write|read|send [stag=1]       (RFC 6581 ready-to-receive message)
  wait      secs=S                              (receive and decode for S seconds)
  expect-rx op=NAME [secs=S]                    (wait until an FPDU with that opcode arrives)
  rping-client count size [verify=1] [nudge=S] (the rping client protocol, against rping -s)
  rping-server count                            (the rping server protocol, against rping -c)
  close     how=fin|rst
  Every sending action also takes dv= rv= (DDP/RDMAP version), crc=auto|good|bad|zero, pad=HEX-byte,
  and batch=1 (queue the FPDU and send it together with the next non-batched one, in one TCP write).

EXPECTATIONS (--expect key=value[|value...]) are checked against the flattened JSON summary
(printed with --summary, written with --json); the exit status is 0 only if all hold.
Useful keys: mpa (accept|reject|none|closed|request), reply.c, reply.rev, reply.enh.ird,
reply.enh.a, term (L/E/C in hex, e.g. 1/1/00, or none), term.m/.d/.r, term.layout,
close (FIN|RST|open), rping (ok|fail), rx_ops (comma list), first_rx.
Only talks to the address given on the command line; every wait is bounded.
"""
import argparse
import json
import os
import socket
import struct
import sys
import time

# ------------------------------------------------------------------------------------ CRC32c
_CRC_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data):
    """CRC32c (Castagnoli, reflected, init/xorout 0xFFFFFFFF) == java.util.zip.CRC32C."""
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


# ------------------------------------------------------------------------------------ MPA
KEY_REQ = b"MPA ID Req Frame"
KEY_REP = b"MPA ID Rep Frame"


def enh_block(a=False, b=False, ird=0, c=False, d=False, ord_=0):
    """RFC 6581 §9: |A|B| IRD(14) |C|D| ORD(14)|, network order."""
    return struct.pack("!HH", (0x8000 if a else 0) | (0x4000 if b else 0) | (ird & 0x3FFF),
                       (0x8000 if c else 0) | (0x4000 if d else 0) | (ord_ & 0x3FFF))


def mpa_frame(key, rev=2, m=False, c=False, r=False, s=None, res=0, enh=None, pd=b"", pd_len=None):
    """RFC 5044 §7.1.1 / RFC 6581 §6 Request/Reply frame. enh: dict for enh_block or None."""
    body = (enh_block(**enh) if enh is not None else b"") + pd
    if s is None:
        s = enh is not None
    b16 = (0x80 if m else 0) | (0x40 if c else 0) | (0x20 if r else 0) | (0x10 if s else 0) | (res & 0x0F)
    return key + bytes([b16, rev & 0xFF]) + struct.pack("!H", len(body) if pd_len is None else pd_len) + body


def parse_mpa(buf):
    """Decode an MPA Request/Reply frame (buf may be incomplete or carry extra bytes)."""
    d = {"hex": bytes(buf).hex(), "length": len(buf)}
    if len(buf) < 20:
        d["complete"] = False
        return d
    key = bytes(buf[:16])
    d["key"] = "Request" if key == KEY_REQ else "Reply" if key == KEY_REP else "unknown:" + key.hex()
    b16 = buf[16]
    d.update(m=int(bool(b16 & 0x80)), c=int(bool(b16 & 0x40)), r=int(bool(b16 & 0x20)),
             s=int(bool(b16 & 0x10)), res=b16 & 0x0F, gso=int(bool(b16 & 0x08)), rev=buf[17])
    pdl = struct.unpack("!H", bytes(buf[18:20]))[0]
    d["pd_length"] = pdl
    pd = bytes(buf[20:20 + pdl])
    d["complete"] = len(pd) == pdl
    d["pd_hex"] = pd.hex()
    if d["s"] and len(pd) >= 4:
        i, o = struct.unpack("!HH", pd[:4])
        d["enh"] = {"a": int(bool(i & 0x8000)), "b": int(bool(i & 0x4000)), "ird": i & 0x3FFF,
                    "c": int(bool(o & 0x8000)), "d": int(bool(o & 0x4000)), "ord": o & 0x3FFF,
                    "hex": pd[:4].hex()}
        d["ulp_pd_hex"] = pd[4:].hex()
    if len(buf) > 20 + pdl:
        d["extra_hex"] = bytes(buf[20 + pdl:]).hex()
    return d


def describe_mpa(d):
    if not d.get("key"):
        return ["short MPA frame (%d bytes): %s" % (d["length"], d["hex"])]
    out = ["MPA %s (%d bytes): %s" % (d["key"], 20 + d["pd_length"], d["hex"][:2 * (20 + d["pd_length"])]),
           "  byte16=0x%02x: M=%d C=%d R=%d S(enhanced)=%d res=0x%x%s  Rev=%d  PD_Length=%d%s"
           % (int(d["hex"][32:34], 16), d["m"], d["c"], d["r"], d["s"], d["res"],
              " (siw GSO bit 0x08 set)" if d["gso"] else "", d["rev"], d["pd_length"],
              "" if d["complete"] else " (INCOMPLETE)")]
    if "enh" in d:
        e = d["enh"]
        out.append("  enhanced data %s: A(p2p)=%d B(Send RTR)=%d IRD=%d | C(Write RTR)=%d D(Read RTR)=%d ORD=%d"
                   % (e["hex"], e["a"], e["b"], e["ird"], e["c"], e["d"], e["ord"]))
        if d.get("ulp_pd_hex"):
            out.append("  ULP private data (%d bytes): %s" % (len(d["ulp_pd_hex"]) // 2, d["ulp_pd_hex"][:128]))
    elif d["pd_length"]:
        out.append("  private data: %s" % d["pd_hex"][:128])
    if d.get("extra_hex"):
        out.append("  + %d bytes after the frame: %s" % (len(d["extra_hex"]) // 2, d["extra_hex"][:128]))
    return out


# ------------------------------------------------------------------------------------ DDP / RDMAP
OPNAMES = {0: "rdma-write", 1: "rdma-read-request", 2: "rdma-read-response", 3: "send", 4: "send-inv",
           5: "send-se", 6: "send-se-inv", 7: "terminate", 8: "immediate-data", 9: "immediate-data-se",
           10: "atomic-request", 11: "atomic-response"}
TAGGED_OPS = (0, 2)


def ctrl_bytes(tagged, last, dv, rv, opcode):
    """RFC 5041 §4.2 DDP control (T|L|rsvd|DV) + RFC 5040 §4.2 RDMAP control (RV|rsv|opcode)."""
    return bytes([(0x80 if tagged else 0) | (0x40 if last else 0) | (dv & 3), ((rv & 3) << 6) | (opcode & 0xF)])


def untagged(opcode, qn, msn, mo=0, payload=b"", inv=0, last=True, dv=1, rv=1):
    return ctrl_bytes(False, last, dv, rv, opcode) + struct.pack("!IIII", inv, qn, msn, mo) + payload


def tagged(opcode, stag, to, payload=b"", last=True, dv=1, rv=1):
    return ctrl_bytes(True, last, dv, rv, opcode) + struct.pack("!IQ", stag, to) + payload


def read_request(msn, sink_stag, sink_to, size, src_stag, src_to, dv=1, rv=1):
    return untagged(1, 1, msn, 0, struct.pack("!IQIIQ", sink_stag, sink_to, size, src_stag, src_to), dv=dv, rv=rv)


def terminate(layer, etype, code, m=False, d=False, r=False, seglen=0, ddp_hdr=b"", rdma_hdr=b"", msn=1):
    """RFC 5040 §4.8 layout: Layer<<4|EType, code, M/D/R = 0x80/0x40/0x20."""
    body = bytes([((layer & 0xF) << 4) | (etype & 0xF), code & 0xFF,
                  (0x80 if m else 0) | (0x40 if d else 0) | (0x20 if r else 0), 0])
    if d:
        body += struct.pack("!H", seglen) + ddp_hdr
    if r:
        body += rdma_hdr
    return untagged(7, 2, msn, 0, body)


def fpdu(ulpdu, crc_on, crc_mode="auto", pad_byte=0):
    """RFC 5044 §4.1 FPDU without markers: ULPDU_Length | ULPDU | PAD | CRC (LSB first)."""
    n = len(ulpdu)
    if n > 0xFFFF:
        raise ValueError("ULPDU too long: %d" % n)
    pad = (-(2 + n)) % 4
    body = struct.pack("!H", n) + ulpdu + bytes([pad_byte & 0xFF]) * pad
    good = crc32c(body)
    if crc_mode == "auto":
        crc_mode = "good" if crc_on else "zero"
    val = {"good": good, "bad": good ^ 0xA5A5A5A5, "zero": 0}[crc_mode]
    return body + struct.pack("<I", val)


# When both readings of a Terminate control word are equally plausible (no M/D/R flags and both
# Layer/EType orders registered, e.g. 20 06 00 00 = 0/2/06 mirrored or 2/0/06 RFC), prefer this one.
# Linux siw on little-endian hosts writes the bit-mirrored layout (FINDINGS.md F1).
TERM_TIE = "bit-mirrored"


# Registered Terminate triples (errors.md §2-4; IANA registries of RFC 6580/6581)
def _registered(layer, etype, code):
    if layer == 0:
        return etype == 0 or (etype == 1 and code in (0, 1, 2, 3, 4, 9, 0xFF)) or \
            (etype == 2 and code in (5, 6, 7, 8, 9, 0xFF))
    if layer == 1:
        return (etype == 0 and code == 0) or (etype == 1 and code in (0, 1, 2, 3, 4)) or \
            (etype == 2 and code in (1, 2, 3, 4, 5, 6))
    if layer == 2:
        return etype == 0 and code in (1, 2, 3, 4, 5, 6, 7)
    return False


def decode_hdr_copy(h):
    """Decode a copied DDP header (as carried in a Terminate), 14 or 18 bytes, + RDMA hdr."""
    if len(h) < 2:
        return {"hex": h.hex()}
    t = bool(h[0] & 0x80)
    d = {"hex": h.hex(), "t": int(t), "l": int(bool(h[0] & 0x40)), "dv": h[0] & 3, "rv": h[1] >> 6,
         "opcode": h[1] & 0xF, "op": OPNAMES.get(h[1] & 0xF, "opcode-%d" % (h[1] & 0xF))}
    if t and len(h) >= 14:
        d["stag"], d["to"] = struct.unpack("!IQ", h[2:14])
        d["stag"] = "0x%08x" % d["stag"]
        d["to"] = "0x%x" % d["to"]
    elif not t and len(h) >= 18:
        inv, d["qn"], d["msn"], d["mo"] = struct.unpack("!IIII", h[2:18])
        d["inv_stag"] = "0x%08x" % inv
    return d


def decode_term(body):
    """body = the Terminate's bytes after the 18-byte untagged header (control word onwards).
    Both readings of the control word are computed; the one that is a registered L/E/C with
    flags consistent with the bytes that follow is chosen ('layout')."""
    out = {"ctrl_hex": body[:4].hex(), "rest_len": max(0, len(body) - 4)}
    if len(body) < 4:
        out["error"] = "short terminate"
        return out
    w = body[:4]
    rest = body[4:]
    readings = {
        "rfc5040": dict(layer=w[0] >> 4, etype=w[0] & 0xF, code=w[1], m=int(bool(w[2] & 0x80)),
                        d=int(bool(w[2] & 0x40)), r=int(bool(w[2] & 0x20)),
                        reserved=((w[2] & 0x1F) << 8) | w[3]),
        "bit-mirrored": dict(layer=w[0] & 0xF, etype=w[0] >> 4, code=w[1], m=int(bool(w[2] & 0x01)),
                             d=int(bool(w[2] & 0x02)), r=int(bool(w[2] & 0x04)),
                             reserved=((w[2] & 0xF8) << 5) | w[3]),
    }

    def score(rd):
        s = 0
        if _registered(rd["layer"], rd["etype"], rd["code"]):
            s += 4
        if rd["reserved"] == 0:
            s += 2
        expect = 0
        if rd["d"] and len(rest) >= 3:
            expect = 2 + (14 if rest[2] & 0x80 else 18) + (28 if rd["r"] else 0)
        if expect == len(rest) or (not rd["d"] and not rest):
            s += 2
        return s

    scores = {k: score(v) for k, v in readings.items()}
    best = max(scores, key=lambda k: (scores[k], k == TERM_TIE))
    out["readings"] = {k: dict(v, score=scores[k]) for k, v in readings.items()}
    out["layout"] = best if scores[best] > min(scores.values()) else "tie->" + best
    rd = readings[best]
    out.update({k: rd[k] for k in ("layer", "etype", "code", "m", "d", "r")})
    out["lec"] = "%x/%x/%02x" % (rd["layer"], rd["etype"], rd["code"])
    if rd["d"] and len(rest) >= 2:
        out["ddp_segment_length"] = struct.unpack("!H", rest[:2])[0]
        hl = 14 if (len(rest) > 2 and rest[2] & 0x80) else 18
        out["ddp_hdr"] = decode_hdr_copy(rest[2:2 + hl])
        if rd["r"]:
            rr = rest[2 + hl:2 + hl + 28]
            out["rdma_hdr"] = {"hex": rr.hex()}
            if len(rr) == 28:
                ss, st, sz, rs, rt = struct.unpack("!IQIIQ", rr)
                out["rdma_hdr"].update(sink_stag="0x%08x" % ss, sink_to="0x%x" % st, size=sz,
                                       src_stag="0x%08x" % rs, src_to="0x%x" % rt)
    elif rest:
        out["trailing_hex"] = rest.hex()
    return out


def decode_ulpdu(u):
    d = {"ulpdu_length": len(u)}
    if len(u) < 2:
        d["error"] = "short ULPDU"
        return d
    t = bool(u[0] & 0x80)
    op = u[1] & 0xF
    d.update(t=int(t), l=int(bool(u[0] & 0x40)), ddp_rsvd=(u[0] >> 2) & 0xF, dv=u[0] & 3, rv=u[1] >> 6,
             rsv=(u[1] >> 4) & 3, opcode=op, op=OPNAMES.get(op, "opcode-%d" % op))
    if t:
        if len(u) < 14:
            d["error"] = "short tagged header"
            return d
        stag, to = struct.unpack("!IQ", u[2:14])
        d.update(stag="0x%08x" % stag, to="0x%x" % to, payload_len=len(u) - 14)
        d["payload_hex"] = u[14:14 + 48].hex()
        return d
    if len(u) < 18:
        d["error"] = "short untagged header"
        return d
    inv, qn, msn, mo = struct.unpack("!IIII", u[2:18])
    d.update(inv_stag="0x%08x" % inv, qn=qn, msn=msn, mo=mo, payload_len=len(u) - 18)
    p = u[18:]
    if op == 1 and len(p) >= 28:
        ss, st, sz, rs, rt = struct.unpack("!IQIIQ", p[:28])
        d["rreq"] = {"sink_stag": "0x%08x" % ss, "sink_to": "0x%x" % st, "size": sz,
                     "src_stag": "0x%08x" % rs, "src_to": "0x%x" % rt}
    elif op == 7:
        d["term"] = decode_term(p)
    else:
        d["payload_hex"] = p[:64].hex()
        if len(p) == 16 and op in (3, 4, 5, 6):
            a, k, n = struct.unpack("!QII", p)
            d["as_rping_adv"] = {"addr": "0x%x" % a, "rkey": "0x%08x" % k, "len": n}
    return d


def describe_fpdu(f):
    u = f["ddp"]
    s = "FPDU %dB: ULPDU_Length=%d pad=%d%s CRC=%s%s" % (
        f["fpdu_length"], u["ulpdu_length"], f["pad_len"],
        (" (pad bytes %s)" % f["pad_hex"]) if f["pad_len"] else "", f["crc_hex"],
        {"ok": " (valid CRC32c)", "bad": " (WRONG CRC32c, expected %s)" % f.get("crc_expected_hex"),
         "off": " (CRC not negotiated)"}.get(f["crc_check"], ""))
    lines = [s]
    h = "  DDP T=%d L=%d DV=%d | RDMAP RV=%d opcode=%d (%s)" % (u.get("t", -1), u.get("l", -1), u.get("dv", -1),
                                                             u.get("rv", -1), u.get("opcode", -1), u.get("op"))
    if u.get("t"):
        h += " | STag=%s TO=%s payload=%d" % (u.get("stag"), u.get("to"), u.get("payload_len", 0))
    elif "qn" in u:
        h += " | inv/rsvd=%s QN=%d MSN=%d MO=%d payload=%d" % (u["inv_stag"], u["qn"], u["msn"], u["mo"],
                                                                 u["payload_len"])
    lines.append(h)
    if "rreq" in u:
        r = u["rreq"]
        lines.append("  Read Request: sink STag=%s sink TO=%s size=%d src STag=%s src TO=%s"
                     % (r["sink_stag"], r["sink_to"], r["size"], r["src_stag"], r["src_to"]))
    if "term" in u:
        t = u["term"]
        lines.append("  TERMINATE control word %s -> Layer=%d EType=%d Code=0x%02x M=%d D=%d R=%d "
                     "(layout: %s)" % (t["ctrl_hex"], t.get("layer", -1), t.get("etype", -1), t.get("code", -1),
                                       t.get("m", -1), t.get("d", -1), t.get("r", -1), t.get("layout")))
        for k, rd in t.get("readings", {}).items():
            lines.append("    as %-12s: L=%d E=%d C=0x%02x M=%d D=%d R=%d reserved=0x%x score=%d"
                         % (k, rd["layer"], rd["etype"], rd["code"], rd["m"], rd["d"], rd["r"], rd["reserved"],
                            rd["score"]))
        if "ddp_segment_length" in t:
            lines.append("    DDP Segment Length field=%d; copied DDP header: %s"
                         % (t["ddp_segment_length"], json.dumps(t["ddp_hdr"], sort_keys=True)))
        if "rdma_hdr" in t:
            lines.append("    copied RDMA header: %s" % json.dumps(t["rdma_hdr"], sort_keys=True))
        if "trailing_hex" in t:
            lines.append("    bytes after control word: %s" % t["trailing_hex"])
    elif "as_rping_adv" in u:
        lines.append("  payload %s (rping advert: %s)" % (u["payload_hex"], json.dumps(u["as_rping_adv"])))
    elif u.get("payload_len") and "rreq" not in u:
        lines.append("  payload[:%d] %s" % (min(u["payload_len"], 48), u.get("payload_hex", "")[:96]))
    return lines


def split_fpdus(buf, crc_on):
    """Split complete FPDUs from the front of buf. Returns (list of decoded FPDUs, bytes consumed)."""
    out, pos = [], 0
    while len(buf) - pos >= 2:
        n = struct.unpack("!H", bytes(buf[pos:pos + 2]))[0]
        pad = (-(2 + n)) % 4
        total = 2 + n + pad + 4
        if len(buf) - pos < total:
            break
        raw = bytes(buf[pos:pos + total])
        covered = raw[:2 + n + pad]
        crc_wire = raw[-4:]
        exp = struct.pack("<I", crc32c(covered))
        f = {"hex": raw.hex(), "fpdu_length": total, "pad_len": pad, "pad_hex": raw[2 + n:2 + n + pad].hex(),
             "crc_hex": crc_wire.hex(), "ddp": decode_ulpdu(raw[2:2 + n])}
        if crc_on:
            f["crc_check"] = "ok" if crc_wire == exp else "bad"
            if crc_wire != exp:
                f["crc_expected_hex"] = exp.hex()
        else:
            f["crc_check"] = "off"
            f["crc_if_computed_hex"] = exp.hex()
        out.append(f)
        pos += total
    return out, pos


# ------------------------------------------------------------------------------------ peer
class Log:
    def __init__(self, quiet=False):
        self.t0 = time.time()
        self.quiet = quiet
        self.lines = []

    def __call__(self, msg):
        line = "[%7.3f] %s" % (time.time() - self.t0, msg)
        self.lines.append(line)
        if not self.quiet:
            print(line, flush=True)


class Region:
    def __init__(self, name, stag, va, length, fill=None):
        self.name, self.stag, self.va = name, stag, va
        self.data = bytearray(fill if fill is not None else bytes(length))

    def contains(self, to, n):
        return self.va <= to and to + n <= self.va + len(self.data)


class Peer:
    def __init__(self, sock, log, args):
        self.sock, self.log, self.args = sock, log, args
        self.crc = False
        self.rx = bytearray()
        self.closed = None          # "FIN" | "RST" | None
        self.msn_tx = {0: 1, 1: 1, 2: 1}
        self.fpdus = []             # every FPDU received (decoded)
        self.sends = []             # payloads of received untagged Sends
        self.terms = []
        self.regions = {}
        self.batch = b""
        self.errors = []
        self.pending_reads = []     # our outstanding Read Requests: [sink region, to, size, got]
        self.vars = {}
        self.rping = None
        self.sent_fpdus = []
        self.max_ulpdu = args.max_ulpdu
        self.request = self.reply = None
        self.nudged = 0

    # ---- memory
    def add_region(self, name, stag, va, length, fill=None):
        r = Region(name, stag, va, length, fill)
        self.regions[stag] = r
        self.vars.update({name + "_stag": stag, name + "_va": va, name + "_len": length})
        return r

    # ---- send side
    def send_bytes(self, data, what):
        try:
            self.sock.sendall(data)
            self.log("TX %s (%d bytes): %s" % (what, len(data), data[:96].hex() + ("..." if len(data) > 96 else "")))
            return True
        except OSError as e:
            self.log("TX %s failed: %s" % (what, e))
            self.errors.append("send: %s" % e)
            if isinstance(e, ConnectionResetError) and not self.closed:
                self.closed = "RST"
            return False

    def send_fpdu(self, ulpdu, crc_mode="auto", pad_byte=0, batch=False, what=None):
        if crc_mode == "auto":
            crc_mode = self.args.tx_crc
        f = fpdu(ulpdu, self.crc, crc_mode, pad_byte)
        d = decode_ulpdu(ulpdu)
        what = what or ("FPDU %s" % d.get("op"))
        self.sent_fpdus.append({"hex": f.hex(), "what": what})
        for line in describe_fpdu(split_fpdus(f, self.crc)[0][0]):
            self.log("   tx> " + line)
        if batch:
            self.batch += f
            self.log("(queued %s for a batched write)" % what)
            return True
        data, self.batch = self.batch + f, b""
        return self.send_bytes(data, what)

    def next_msn(self, qn, given=None):
        if given is not None and given != "auto":
            return int(given)
        m = self.msn_tx[qn]
        self.msn_tx[qn] += 1
        return m

    # ---- receive side
    def pump(self, timeout):
        """Receive for up to timeout seconds (returns early on close). Processes complete FPDUs."""
        end = time.time() + timeout
        while not self.closed:
            left = end - time.time()
            if left <= 0:
                break
            self.sock.settimeout(min(left, 0.2))
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except ConnectionResetError:
                self.closed = "RST"
                self.log("RX: connection reset by peer (RST)")
                break
            except OSError as e:
                self.closed = "ERR:%s" % e
                self.log("RX error: %s" % e)
                break
            if not chunk:
                self.closed = "FIN"
                self.log("RX: peer closed (FIN)")
                break
            self.log("RX %d bytes: %s" % (len(chunk), chunk[:96].hex() + ("..." if len(chunk) > 96 else "")))
            self.rx += chunk
            self.process()
            if self.stop_pred and self.stop_pred():
                break
        self.process()

    stop_pred = None

    def wait_for(self, pred, timeout):
        self.stop_pred = pred
        try:
            if pred():
                return True
            self.pump(timeout)
        finally:
            self.stop_pred = None
        return pred()

    def process(self):
        fs, used = split_fpdus(self.rx, self.crc)
        del self.rx[:used]
        for f in fs:
            f["t"] = round(time.time() - self.log.t0, 3)
            self.fpdus.append(f)
            for line in describe_fpdu(f):
                self.log("   rx< " + line)
            self.handle(f)

    def handle(self, f):
        u = f["ddp"]
        op = u.get("opcode")
        raw = bytes.fromhex(f["hex"])[2:2 + u["ulpdu_length"]]
        if op == 7:
            self.terms.append(u["term"])
        elif op in (3, 4, 5, 6):
            payload = raw[18:]
            self.sends.append(payload)
            if len(payload) == 16:
                a, k, n = struct.unpack("!QII", payload)
                self.vars.update(adv_addr=a, adv_rkey=k, adv_len=n)
        elif op in (0, 2) and "stag" in u:
            stag, to = int(u["stag"], 16), int(u["to"], 16)
            payload = raw[14:]
            r = self.regions.get(stag)
            if payload and r and r.contains(to, len(payload)):
                r.data[to - r.va:to - r.va + len(payload)] = payload
            elif payload:
                self.log("   (tagged data for unknown STag/TO %s/%s, %d bytes, not placed)"
                         % (u["stag"], u["to"], len(payload)))
            if op == 2:
                for p in self.pending_reads:
                    if p[0] == stag and p[3] < p[2]:
                        p[3] += len(payload)
                        break
        elif op == 1 and "rreq" in u and self.args.serve_reads:
            self.serve_read(u["rreq"])

    def serve_read(self, rr):
        size = rr["size"]
        src, src_to = int(rr["src_stag"], 16), int(rr["src_to"], 16)
        sink, sink_to = int(rr["sink_stag"], 16), int(rr["sink_to"], 16)
        if size:
            r = self.regions.get(src)
            if not r or not r.contains(src_to, size):
                self.log("   (Read Request for unknown/out-of-range STag %s: not answered)" % rr["src_stag"])
                return
            data = bytes(r.data[src_to - r.va:src_to - r.va + size])
        else:
            data = b""
        self.send_tagged(2, sink, sink_to, data, "Read Response")

    def send_tagged(self, opcode, stag, to, data, what):
        """One tagged message (Write / Read Response), segmented to --max-ulpdu, TO advancing (RFC 5041 §5.2)."""
        off, seg = 0, max(1, self.max_ulpdu - 14)
        while True:
            chunk = data[off:off + seg]
            last = off + len(chunk) >= len(data)
            self.send_fpdu(tagged(opcode, stag, to + off, chunk, last=last), what=what)
            off += len(chunk)
            if last:
                break


# ------------------------------------------------------------------------------------ actions
def _num(v, env):
    if isinstance(v, int):
        return v
    v = str(v).strip()
    try:
        return int(v, 0)
    except ValueError:
        return int(eval(v, {"__builtins__": {}}, dict(env)))  # lab tool: tiny arithmetic over named values


def parse_action(spec):
    name, _, rest = spec.partition(":")
    kv = {}
    for part in filter(None, rest.split(",")):
        k, _, v = part.partition("=")
        kv[k.strip()] = v.strip()
    return name.strip(), kv


def payload_of(kv, env, default_len=0):
    if "data" in kv:
        return bytes.fromhex(kv["data"])
    n = _num(kv.get("len", default_len), env)
    fill = kv.get("fill")
    if fill:
        return (bytes.fromhex(fill) * (n // max(1, len(bytes.fromhex(fill))) + 1))[:n]
    return bytes((0x41 + i % 26) for i in range(n))


def rping_pattern(ping, size):
    """What rping -c puts in its source buffer (librdmacm examples/rping.c)."""
    start = 65 + (ping % 58)
    s = ("rdma-ping-%d: " % ping).encode()
    b = bytearray(s[:size])
    c = start
    while len(b) < size:
        b.append(c)
        c = c + 1 if c < 122 else 65
    b[size - 1] = 0
    return bytes(b)


def run_action(p, spec):
    name, kv = parse_action(spec)
    env = p.vars
    common = dict(crc_mode=kv.get("crc", "auto"), pad_byte=_num(kv.get("pad", "0"), env),
                  batch=kv.get("batch", "0") == "1")
    dv, rv = _num(kv.get("dv", 1), env), _num(kv.get("rv", 1), env)
    last = kv.get("last", "1") == "1"
    p.log("ACTION %s" % spec)
    if name == "send":
        op = _num(kv.get("opcode", 3), env)
        return p.send_fpdu(untagged(op, _num(kv.get("qn", 0), env), p.next_msn(0, kv.get("msn")),
                                    _num(kv.get("mo", 0), env), payload_of(kv, env, 16),
                                    inv=_num(kv.get("inv", 0), env), last=last, dv=dv, rv=rv), **common)
    if name == "untagged":
        qn = _num(kv.get("qn", 0), env)
        msn = _num(kv["msn"], env) if "msn" in kv else p.next_msn(min(qn, 2))
        return p.send_fpdu(untagged(_num(kv["opcode"], env), qn, msn, _num(kv.get("mo", 0), env),
                                    payload_of(kv, env), last=last, dv=dv, rv=rv), **common)
    if name in ("write", "tagged", "rresp"):
        op = 0 if name == "write" else 2 if name == "rresp" else _num(kv["opcode"], env)
        return p.send_fpdu(tagged(op, _num(kv["stag"], env), _num(kv["to"], env), payload_of(kv, env),
                                  last=last, dv=dv, rv=rv), **common)
    if name == "rreq":
        ok = True
        for i in range(_num(kv.get("count", 1), env)):
            b = i < _num(kv.get("count", 1), env) - 1 or common["batch"]
            ok &= p.send_fpdu(read_request(p.next_msn(1, kv.get("msn")), _num(kv["sink_stag"], env),
                                           _num(kv["sink_to"], env), _num(kv["size"], env),
                                           _num(kv["src_stag"], env), _num(kv["src_to"], env), dv=dv, rv=rv),
                              crc_mode=common["crc_mode"], batch=b)
        return ok
    if name == "term":
        return p.send_fpdu(terminate(_num(kv["layer"], env), _num(kv["etype"], env), _num(kv["code"], env),
                                     kv.get("m") == "1", kv.get("d") == "1", kv.get("r") == "1",
                                     msn=p.next_msn(2)), **common)
    if name == "rtr":
        kind = kv.get("kind", "auto")
        if kind == "auto":   # the RTR the Reply (or our own Reply) selected: C -> write, D -> read, B -> send
            e = (p.reply or {}).get("enh", {})
            kind = "write" if e.get("c") else "read" if e.get("d") else "send" if e.get("b") else "write"
        if kind == "write":   # RFC 6581 §5 / mpa.md §8.3: zero-length RDMA Write, STag non-zero, TO 0
            u = tagged(0, _num(kv.get("stag", 1), env), 0, b"", dv=dv, rv=rv)
        elif kind == "read":  # zero-length Read Request, QN 1, MSN 1
            u = read_request(p.next_msn(1), _num(kv.get("sink_stag", 0), env), 0, 0,
                             _num(kv.get("stag", 1), env), 0, dv=dv, rv=rv)
        elif kind == "send":  # zero-length Send, QN 0
            u = untagged(3, 0, p.next_msn(0), 0, b"", dv=dv, rv=rv)
        else:
            raise SystemExit("rtr kind must be write|read|send")
        return p.send_fpdu(u, what="RTR (%s)" % kind, **common)
    if name == "raw":
        if "ulpdu" in kv:
            return p.send_fpdu(bytes.fromhex(kv["ulpdu"]), **common)
        return p.send_bytes(bytes.fromhex(kv["bytes"]), "raw bytes")
    if name == "wait":
        p.pump(float(kv.get("secs", 1)))
        return True
    if name == "expect-rx":
        want = kv["op"]
        n0 = int(kv.get("after", 0))
        ok = p.wait_for(lambda: any(f["ddp"].get("op") == want for f in p.fpdus[n0:]), float(kv.get("secs", 10)))
        p.log("expect-rx %s: %s" % (want, "seen" if ok else "NOT seen"))
        return ok
    if name == "close":
        how = kv.get("how", "fin")
        do_close(p, how)
        return True
    if name == "rping-client":
        return rping_client(p, _num(kv.get("count", 1), env), _num(kv.get("size", 64), env),
                            kv.get("verify", "1") == "1", float(kv.get("secs", 20)), float(kv.get("nudge", 0)))
    if name == "rping-server":
        return rping_server(p, _num(kv.get("count", 1), env), float(kv.get("secs", 20)))
    raise SystemExit("unknown action %r" % name)


def rping_client(p, count, size, verify, secs, nudge=0.0):
    """rping client protocol (librdmacm examples/rping.c) against `rping -s` in the guest.
    nudge > 0: if the first go-ahead has not come after `nudge` seconds, send a zero-length RDMA
    Write (STag 1, TO 0) -- new bytes make siw read the FPDU stranded by its accept race."""
    src = p.add_region("src", 0x00001100, 0x7f0000100000, size)
    sink = p.add_region("sink", 0x00001200, 0x7f0000200000, size)
    ok = True
    for ping in range(count):
        src.data[:] = rping_pattern(ping, size)
        sink.data[:] = bytes(size)
        n = len(p.sends)
        p.send_fpdu(untagged(3, 0, p.next_msn(0), 0, struct.pack("!QII", src.va, src.stag, size)),
                    what="Send (rping source advert)")
        if ping == 0 and nudge > 0 and not p.wait_for(lambda: len(p.sends) > n, nudge):
            p.log("rping-client: no reaction after %.1fs: siw stalled; nudging with a zero-length Write" % nudge)
            p.nudged = 1
            p.send_fpdu(tagged(0, 1, 0, b""), what="zero-length RDMA Write (nudge)")
        if not p.wait_for(lambda: len(p.sends) > n, secs):
            p.log("rping-client: no go-ahead after the source advert (ping %d)" % ping)
            ok = False
            break
        n = len(p.sends)
        p.send_fpdu(untagged(3, 0, p.next_msn(0), 0, struct.pack("!QII", sink.va, sink.stag, size)),
                    what="Send (rping sink advert)")
        if not p.wait_for(lambda: len(p.sends) > n, secs):
            p.log("rping-client: no go-ahead after the sink advert (ping %d)" % ping)
            ok = False
            break
        if verify and bytes(sink.data) != bytes(src.data):
            p.log("rping-client: ping %d data MISMATCH" % ping)
            ok = False
            break
        p.log("rping-client: ping %d ok (%d bytes verified)" % (ping, size))
    p.rping = "ok" if ok else "fail"
    return ok


def rping_server(p, count, secs):
    """rping server protocol against `rping -c -a <host>` in the guest."""
    buf = p.add_region("buf", 0x00002100, 0x7f0000300000, 65536)
    ok, done = True, 0
    for ping in range(count):
        n = len(p.sends)
        if not p.wait_for(lambda: len(p.sends) > n, secs):
            p.log("rping-server: no source advert (ping %d)" % ping)
            ok = False
            break
        a, k, size = struct.unpack("!QII", p.sends[-1][:16])
        rec = [buf.stag, buf.va, size, 0]
        p.pending_reads.append(rec)
        p.send_fpdu(read_request(p.next_msn(1), buf.stag, buf.va, size, k, a), what="Read Request (rping)")
        if not p.wait_for(lambda: rec[3] >= size, secs):
            p.log("rping-server: Read Response incomplete (%d/%d)" % (rec[3], size))
            ok = False
            break
        p.log("rping-server: read %d bytes: %r" % (size, bytes(buf.data[:min(size, 64)])))
        n = len(p.sends)
        p.send_fpdu(untagged(3, 0, p.next_msn(0), 0, bytes(16)), what="Send (rping go-ahead)")
        if not p.wait_for(lambda: len(p.sends) > n, secs):
            p.log("rping-server: no sink advert (ping %d)" % ping)
            ok = False
            break
        a, k, size2 = struct.unpack("!QII", p.sends[-1][:16])
        p.send_tagged(0, k, a, bytes(buf.data[:size2]), "RDMA Write (rping)")
        p.send_fpdu(untagged(3, 0, p.next_msn(0), 0, bytes(16)), what="Send (rping go-ahead)")
        done += 1
    p.rping = "ok" if ok and done == count else "fail"
    return ok


def do_close(p, how):
    if p.closed and how != "rst":
        return
    try:
        if how == "rst":
            p.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            p.log("closing with RST (SO_LINGER 0)")
        elif how == "fin":
            p.log("closing with FIN")
        elif how == "shutdown":
            p.sock.shutdown(socket.SHUT_WR)
            p.log("half-close (shutdown SHUT_WR)")
            return
        p.sock.close()
    except OSError as e:
        p.log("close: %s" % e)


# ------------------------------------------------------------------------------------ MPA exchange
def read_frame(sock, rx, timeout, log):
    """Read one MPA frame into rx (bytearray). Returns (frame bytes or None, close kind or None)."""
    end = time.time() + timeout
    need = 20
    while True:
        if len(rx) >= 20:
            need = 20 + struct.unpack("!H", bytes(rx[18:20]))[0]
        if len(rx) >= need:
            fr = bytes(rx[:need])
            del rx[:need]
            return fr, None
        left = end - time.time()
        if left <= 0:
            return None, None
        sock.settimeout(min(left, 0.5))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            log("RX: connection reset (RST) while waiting for an MPA frame (%d bytes so far)" % len(rx))
            return None, "RST"
        if not chunk:
            log("RX: peer closed (FIN) while waiting for an MPA frame (%d bytes so far: %s)" % (len(rx), rx.hex()))
            return None, "FIN"
        log("RX %d bytes: %s" % (len(chunk), chunk[:96].hex()))
        rx += chunk
        # PD_Length > 512 can never complete; keep reading until timeout/close anyway


def build_enh(a, rtr, ird, ord_):
    rtr = rtr or ""
    return {"a": a, "b": "B" in rtr, "ird": ird, "c": "C" in rtr, "d": "D" in rtr, "ord_": ord_}


def mpa_args(ap, prefix=""):
    ap.add_argument("--rev", type=int, default=2)
    ap.add_argument("--markers", action="store_true", help="set M=1")
    ap.add_argument("--crc", default=None, choices=["on", "off", "auto"],
                    help="C bit (listen: auto = echo the Request's C)")
    ap.add_argument("--enhanced", default="auto", choices=["auto", "on", "off"],
                    help="S bit + 4-byte IRD/ORD block (auto: on for rev 2; listen: as the Request)")
    ap.add_argument("--p2p", action="store_true", help="A=1 (peer-to-peer)")
    ap.add_argument("--rtr", default="", help="RTR flags to offer/choose, letters from BCD (e.g. CD)")
    ap.add_argument("--ird", type=lambda v: int(v, 0), default=None)
    ap.add_argument("--ord", type=lambda v: int(v, 0), default=None)
    ap.add_argument("--pd", default="", help="ULP private data (hex) after the enhanced block")
    ap.add_argument("--pd-size", type=int, default=None, help="ULP private data of N bytes (0x50 'P')")
    ap.add_argument("--pd-len", type=int, default=None, help="lie in PD_Length (sends the real bytes)")
    ap.add_argument("--res", type=lambda v: int(v, 0), default=0, help="low nibble of byte 16 (reserved/GSO)")
    ap.add_argument("--sbit", choices=["on", "off"], help="force the S (enhanced) bit regardless of the block")
    ap.add_argument("--key", default=None, help="override the 16-byte key (ASCII)")
    ap.add_argument("--extra", default="", help="hex bytes appended to our MPA frame in the same write")


def our_pd(a):
    pd = bytes.fromhex(a.pd)
    if a.pd_size is not None:
        pd = b"P" * a.pd_size
    return pd


def summary_of(p, a, req, rep, mpa_state, log):
    # close: how the PEER ended the connection (FIN/RST), "local" if we closed first, "n/a" if never connected
    s = {"role": a.mode, "mpa": mpa_state, "close": (p.closed or "local") if p else "n/a"}
    if req:
        s["request"] = {k: v for k, v in req.items() if k != "hex"}
        s["request"]["hex"] = req["hex"]
    if rep:
        s["reply"] = {k: v for k, v in rep.items() if k != "hex"}
        s["reply"]["hex"] = rep["hex"]
    if p:
        s["crc"] = int(p.crc)
        s["rx_count"] = len(p.fpdus)
        s["rx_ops"] = ",".join(f["ddp"].get("op", "?") for f in p.fpdus) or "none"
        s["first_rx"] = p.fpdus[0]["ddp"].get("op") if p.fpdus else "none"
        s["rx_fpdus"] = [{"hex": f["hex"], "op": f["ddp"].get("op"), "t": f.get("t"), "crc": f["crc_check"]}
                         for f in p.fpdus]
        s["rx_crc_bad"] = sum(1 for f in p.fpdus if f["crc_check"] == "bad")
        if p.terms:
            t = p.terms[0]
            s["term"] = t.get("lec", "?")
            s["term_detail"] = t
            s["term_fpdu_hex"] = next(f["hex"] for f in p.fpdus if f["ddp"].get("opcode") == 7)
            s["term_m"], s["term_d"], s["term_r"] = t.get("m"), t.get("d"), t.get("r")
            s["term_layout"] = t.get("layout")
        else:
            s["term"] = "none"
        s["rping"] = p.rping or "n/a"
        s["nudged"] = p.nudged
        s["sent_fpdus"] = p.sent_fpdus
        s["errors"] = p.errors
    return s


def flatten(d, pre=""):
    out = {}
    for k, v in d.items():
        key = pre + k
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        elif isinstance(v, list):
            out[key] = json.dumps(v)
        else:
            out[key] = str(v)
    return out


def check_expect(summary, exps, log):
    flat = flatten(summary)
    # convenient aliases
    for a, b in (("term.m", "term_m"), ("term.d", "term_d"), ("term.r", "term_r"), ("term.layout", "term_layout")):
        if b in flat:
            flat[a] = flat[b]
    ok = True
    for e in exps:
        k, _, v = e.partition("=")
        got = flat.get(k, "none")
        good = got in v.split("|") or (v.startswith("~") and v[1:] in got)
        log("EXPECT %s=%s -> got %s: %s" % (k, v, got, "ok" if good else "FAILED"))
        ok &= good
    return ok


def run_peer(a):
    log = Log(a.quiet)
    p, req, rep, mpa_state = None, None, None, "none"
    rx = bytearray()
    if a.mode == "connect":
        log("connecting to %s:%d" % (a.host, a.port))
        try:
            s = socket.create_connection((a.host, a.port), timeout=a.timeout)
        except OSError as e:
            log("connect failed: %s" % e)
            summ = {"role": "connect", "mpa": "connect-failed:%s" % e.__class__.__name__, "close": "n/a"}
            return finish(a, log, summ)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        log("connected %s:%d -> %s:%d" % (s.getsockname() + s.getpeername()))
        p = Peer(s, log, a)
        if a.request_delay:
            log("waiting %.1fs before sending the Request" % a.request_delay)
            p.pump(a.request_delay)
        if a.no_request:
            log("not sending an MPA Request; receiving for --linger")
            p.pump(a.linger)
            mpa_state = "not-sent"
        else:
            enh = None
            use_enh = a.enhanced == "on" or (a.enhanced == "auto" and a.rev == 2)
            if use_enh:
                enh = build_enh(a.p2p, a.rtr, 16 if a.ird is None else a.ird, 16 if a.ord is None else a.ord)
            key = a.key.encode() if a.key else KEY_REQ
            sbit = use_enh if a.sbit is None else a.sbit == "on"
            frame = mpa_frame(key, a.rev, a.markers, a.crc == "on", False, sbit, a.res, enh,
                              our_pd(a), a.pd_len)
            req = parse_mpa(frame)
            for line in describe_mpa(req):
                log("sent " + line)
            p.send_bytes(frame + bytes.fromhex(a.extra), "MPA Request" + (" + extra" if a.extra else ""))
            fr, cl = read_frame(s, rx, a.reply_timeout, log)
            if fr is None:
                p.closed = cl
                mpa_state = "closed" if cl else "none"
                log("no MPA Reply (%s)" % (cl or "timeout"))
            else:
                rep = parse_mpa(fr)
                for line in describe_mpa(rep):
                    log("received " + line)
                mpa_state = "reject" if rep.get("r") else "accept" if rep.get("key") == "Reply" else "bad-key"
                p.request, p.reply = req, rep
                p.crc = bool(req.get("c") or rep.get("c"))     # RFC 5044 §7.1.1: either C=1 -> CRC on
                if a.force_crc:
                    p.crc = a.force_crc == "on"
                p.rx += rx
                log("MPA Reply %s; CRC %s; %d bytes already buffered after the Reply"
                    % (mpa_state, "on" if p.crc else "off", len(p.rx)))
                p.process()
    else:
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((a.bind, a.port))
        srv.listen(1)
        srv.settimeout(a.timeout)
        log("listening on %s:%d" % (a.bind, a.port))
        if a.ready_file:
            open(a.ready_file, "w").close()
        try:
            s, peer = srv.accept()
        except socket.timeout:
            log("no connection within %.0fs" % a.timeout)
            srv.close()
            return finish(a, log, {"role": "listen", "mpa": "no-connection", "close": "n/a"})
        srv.close()
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        log("connection from %s:%d" % peer)
        p = Peer(s, log, a)
        fr, cl = read_frame(s, rx, a.timeout, log)
        if fr is None:
            p.closed = cl
            mpa_state = "none"
        else:
            req = parse_mpa(fr)
            for line in describe_mpa(req):
                log("received " + line)
            mpa_state = "request" if req.get("key") == "Request" else "bad-key"
            if len(rx):
                log("%d bytes arrived after the Request: %s" % (len(rx), bytes(rx).hex()))
            if a.reply == "none":
                log("not replying (--reply none)")
            else:
                if a.reply_delay:
                    log("waiting %.1fs before replying" % a.reply_delay)
                    p.pump(a.reply_delay)
                rev = a.rev if a.rev_set else req.get("rev", 2)
                if a.enhanced == "auto":
                    use_enh = bool(req.get("s")) and rev == 2
                else:
                    use_enh = a.enhanced == "on"
                enh = None
                if use_enh:
                    re = req.get("enh", {"ird": 1, "ord": 1, "a": 0})
                    ird = re["ord"] if a.ird is None else a.ird     # RFC 6581 §9.1: responder IRD >= initiator ORD
                    ord_ = re["ird"] if a.ord is None else a.ord    # responder ORD <= initiator IRD
                    p2p = a.p2p or (bool(re.get("a")) and not a.no_p2p)
                    rtr = a.rtr if a.rtr else ("C" if re.get("c") else "D" if re.get("d") else "") if p2p else ""
                    enh = build_enh(p2p, rtr, ird, ord_)
                crc_on = bool(req.get("c")) if (a.crc in (None, "auto")) else a.crc == "on"
                key = a.key.encode() if a.key else KEY_REP
                sbit = use_enh if a.sbit is None else a.sbit == "on"
                frame = mpa_frame(key, rev, a.markers, crc_on, a.reply == "reject", sbit, a.res, enh,
                                  our_pd(a), a.pd_len)
                rep = parse_mpa(frame)
                p.request, p.reply = req, rep
                for line in describe_mpa(rep):
                    log("sending " + line)
                p.send_bytes(frame + bytes.fromhex(a.extra), "MPA Reply" + (" + extra" if a.extra else ""))
                p.crc = bool(req.get("c") or crc_on)
                if a.force_crc:
                    p.crc = a.force_crc == "on"
                p.rx += rx
                p.process()
    if p and not p.closed and a.settle > 0 and mpa_state == "accept":
        # siw accept race (FINDINGS.md): siw installs its FPDU receive upcall only after sending the
        # Reply; an FPDU arriving in that window is not read until more bytes arrive.
        log("settling %.2fs after the Reply before the first FPDU (--settle)" % a.settle)
        p.pump(a.settle)
    if p and not p.closed:
        for spec in a.do or []:
            if p.closed:
                log("skipping %s: connection closed" % spec)
                continue
            ok = run_action(p, spec)
            if not ok and a.stop_on_fail:
                log("action failed; stopping the action list")
                break
        if not p.closed and a.linger > 0:
            p.pump(a.linger)
        if not p.closed:
            do_close(p, a.close)
    summ = summary_of(p, a, req, rep, mpa_state, log)
    return finish(a, log, summ)


def finish(a, log, summ):
    ok = check_expect(summ, a.expect or [], log)
    summ["expect_ok"] = ok
    summ["log"] = log.lines
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summ, f, indent=1, sort_keys=True)
    if a.summary:
        for k, v in sorted(flatten({k: v for k, v in summ.items() if k not in ("log", "rx_fpdus", "sent_fpdus",
                                                                                "term_detail")}).items()):
            print("SUMMARY %s=%s" % (k, v))
    return 0 if ok else 1


# ------------------------------------------------------------------------------------ pcap decode
def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise SystemExit("not a pcap file (pcapng is not supported): %s" % path)
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    linktype = struct.unpack(e + "I", data[20:24])[0]
    pos, pkts = 24, []
    while pos + 16 <= len(data):
        ts, tf, incl, orig = struct.unpack(e + "IIII", data[pos:pos + 16])
        pkts.append((ts + tf / (1e9 if nano else 1e6), data[pos + 16:pos + 16 + incl]))
        pos += 16 + incl
    return linktype, pkts


def tcp_segments(path):
    linktype, pkts = read_pcap(path)
    out = []
    for ts, frame in pkts:
        if linktype == 1:
            if len(frame) < 14 or struct.unpack("!H", frame[12:14])[0] != 0x0800:
                continue
            ip = frame[14:]
        elif linktype == 113:        # Linux cooked (any)
            ip = frame[16:]
        elif linktype in (101, 228):  # raw IPv4
            ip = frame
        else:
            continue
        if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 6:
            continue
        ihl = (ip[0] & 0xF) * 4
        tot = struct.unpack("!H", ip[2:4])[0]
        src, dst = socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20])
        tcp = ip[ihl:tot]
        sp, dp, seq, ack = struct.unpack("!HHII", tcp[:12])
        off = (tcp[12] >> 4) * 4
        flags = tcp[13]
        out.append({"t": ts, "src": "%s:%d" % (src, sp), "dst": "%s:%d" % (dst, dp), "seq": seq, "ack": ack,
                    "flags": flags, "payload": tcp[off:], "win": struct.unpack("!H", tcp[14:16])[0],
                    "opts": tcp[20:off]})
    return out


def flag_str(f):
    return "".join(n for b, n in ((0x02, "S"), (0x10, "."), (0x08, "P"), (0x01, "F"), (0x04, "R")) if f & b) or "-"


def mss_of(opts):
    i = 0
    while i < len(opts):
        k = opts[i]
        if k == 0:
            break
        if k == 1:
            i += 1
            continue
        if i + 1 >= len(opts):
            break
        ln = opts[i + 1]
        if k == 2 and ln == 4:
            return struct.unpack("!H", opts[i + 2:i + 4])[0]
        i += max(ln, 2)
    return None


def tcp_connections(segs):
    """The TCP connections among `segs`, in the order they first appear: (segments, initiator, responder), the
    initiator being the sender of the first SYN without ACK (of the first segment if the SYN was not captured)."""
    conns = {}
    for s in segs:
        conns.setdefault(tuple(sorted((s["src"], s["dst"]))), []).append(s)
    result = []
    for ss in conns.values():
        first = next((s for s in ss if s["flags"] & 0x02 and not s["flags"] & 0x10), ss[0])
        result.append((ss, first["src"], first["dst"]))
    return result


def decode_pcap(path, out=print):
    segs = tcp_segments(path)
    if not segs:
        out("(no TCP segments in %s)" % path)
        return
    t0 = segs[0]["t"]
    for n, (ss, client, server) in enumerate(tcp_connections(segs)):
        out("=== TCP connection %d: %s (initiator) -> %s (responder)" % (n, client, server))
        streams = {client: {"isn": None, "data": bytearray(), "next": None, "mpa": None, "fpdus": 0},
                   server: {"isn": None, "data": bytearray(), "next": None, "mpa": None, "fpdus": 0}}
        crc = [False, {}]
        for s in ss:
            st = streams.setdefault(s["src"], {"isn": None, "data": bytearray(), "next": None, "mpa": None,
                                                "fpdus": 0})
            side = "I->R" if s["src"] == client else "R->I"
            extra = ""
            if s["flags"] & 0x02:
                st["isn"] = s["seq"]
                st["next"] = (s["seq"] + 1) & 0xFFFFFFFF
                m = mss_of(s["opts"])
                extra = " MSS=%s" % m if m else ""
            pl = s["payload"]
            rel = (s["seq"] - st["isn"]) & 0xFFFFFFFF if st["isn"] is not None else s["seq"]
            out("%8.3f %s %-5s seq=%-6d len=%-5d%s" % (s["t"] - t0, side, flag_str(s["flags"]), rel, len(pl), extra))
            if pl:
                if st["next"] is not None and s["seq"] != st["next"]:
                    if ((s["seq"] - st["next"]) & 0xFFFFFFFF) > 0x7FFFFFFF:
                        out("         (retransmission, %d bytes ignored)" % len(pl))
                        continue
                    out("         (GAP in capture before this segment)")
                st["next"] = (s["seq"] + len(pl)) & 0xFFFFFFFF
                st["data"] += pl
                decode_stream(st, side, crc, out)
            if s["flags"] & 0x01 and st["next"] is not None:
                st["next"] = (st["next"] + 1) & 0xFFFFFFFF
        for addr, st in streams.items():
            if st["data"]:
                out("         (%s: %d undecoded bytes at end: %s)" % (addr, len(st["data"]), bytes(st["data"][:64]).hex()))


def pcap_connection(path, ours=None, conn_index=0):
    """One TCP connection of a capture, reassembled and decoded: both MPA frames, the FPDUs each way
    ("i2r"/"r2i", Terminates decoded with the layout each sender uses: siw's bit-mirrored one for the side that
    is not `ours`, RFC 5040 for ours), and how each side closed. None if the capture has no such connection."""
    global TERM_TIE
    conns = tcp_connections(tcp_segments(path))
    if conn_index >= len(conns):
        return None
    ss, ini, res = conns[conn_index]
    sides = {ini: "i2r", res: "r2i"}
    st = {d: {"isn": None, "next": None, "data": bytearray(), "frame": None, "fpdus": [], "close": "none"}
          for d in ("i2r", "r2i")}
    t0 = ss[0]["t"]
    for s in ss:
        d = sides.get(s["src"])
        if d is None:
            continue
        x = st[d]
        if s["flags"] & 0x02:
            x["isn"] = s["seq"]
            x["next"] = (s["seq"] + 1) & 0xFFFFFFFF
        if s["flags"] & 0x04 and x["close"] == "none":
            x["close"], x["close_t"] = "RST", round(s["t"] - t0, 3)
        pl = s["payload"]
        if pl and x["next"] is not None:
            if s["seq"] != x["next"] and ((s["seq"] - x["next"]) & 0xFFFFFFFF) > 0x7FFFFFFF:
                pl = b""      # retransmission
            else:
                x["next"] = (s["seq"] + len(pl)) & 0xFFFFFFFF
                x["data"] += pl
        if s["flags"] & 0x01 and x["close"] == "none":
            x["close"], x["close_t"] = "FIN", round(s["t"] - t0, 3)
    for d in ("i2r", "r2i"):
        b = st[d]["data"]
        if len(b) >= 20 and bytes(b[:16]) in (KEY_REQ, KEY_REP):
            need = 20 + struct.unpack("!H", bytes(b[18:20]))[0]
            if len(b) >= need:
                st[d]["frame"] = parse_mpa(bytes(b[:need]))
                del b[:need]
    req, rep = st["i2r"]["frame"], st["r2i"]["frame"]
    accepted = bool(rep) and not rep.get("r")
    crc = bool((req or {}).get("c")) or bool((rep or {}).get("c"))
    saved = TERM_TIE
    try:
        for d, sender in (("i2r", ini), ("r2i", res)):
            x = st[d]
            TERM_TIE = "rfc5040" if ours and sender.split(":")[0] == ours else "bit-mirrored"
            fs, used = split_fpdus(x["data"], crc) if accepted else ([], 0)
            x["fpdus"], x["undecoded"] = fs, len(x["data"]) - used
    finally:
        TERM_TIE = saved
    return {"connections": len(conns), "initiator": ini, "responder": res, "request": req, "reply": rep,
            "mpa": "none" if not rep else ("reject" if rep.get("r") else "accept"), "crc": crc, "sides": st}


def pcap_summary(path, ours=None, conn_index=0):
    """pcap_connection() as a flat summary for --expect: i2r_*/r2i_* keys (ops, counts per op, first FPDU,
    Terminate, zero-length Writes, close) and, with `ours`, the same as ours_*/siw_*."""
    c = pcap_connection(path, ours, conn_index)
    if c is None:
        return {"connections": 0, "mpa": "none"}
    summ = {"connections": c["connections"], "mpa": c["mpa"], "crc": int(c["crc"]),
            "initiator": c["initiator"], "responder": c["responder"]}
    if c["request"]:
        summ["request"] = c["request"]
    if c["reply"]:
        summ["reply"] = c["reply"]
    crc_bad = 0
    for d in ("i2r", "r2i"):
        x = c["sides"][d]
        fs = x["fpdus"]
        crc_bad += sum(1 for f in fs if f["crc_check"] == "bad")
        summ[d + "_ops"] = ",".join(f["ddp"].get("op", "?") for f in fs) or "none"
        summ[d + "_count"] = len(fs)
        for f in fs:
            k = d + "_n_" + f["ddp"].get("op", "?")
            summ[k] = summ.get(k, 0) + 1
        summ[d + "_first"] = fs[0]["ddp"].get("op", "?") if fs else "none"
        summ[d + "_first_hex"] = fs[0]["hex"] if fs else "none"
        summ[d + "_undecoded"] = x["undecoded"]
        summ[d + "_close"] = x["close"]
        summ[d + "_close_t"] = x.get("close_t", "none")
        terms = [f for f in fs if f["ddp"].get("opcode") == 7 and "term" in f["ddp"]]
        if terms:
            t = terms[0]["ddp"]["term"]
            summ[d + "_term"] = t["lec"]
            summ[d + "_term_mdr"] = "%d%d%d" % (t["m"], t["d"], t["r"])
            summ[d + "_term_layout"] = t["layout"].replace("tie->", "")
            summ[d + "_term_ctrl"] = t["ctrl_hex"]
            summ[d + "_term_hex"] = terms[0]["hex"]
            summ[d + "_term_crc"] = terms[0]["crc_check"]
        else:
            summ[d + "_term"] = "none"
        summ[d + "_zero_len_writes"] = sum(1 for f in fs if f["ddp"].get("opcode") == 0 and f["ddp"].get("t")
                                           and f["ddp"].get("payload_len") == 0)
    summ["crc_bad"] = crc_bad
    if ours:
        mine = "i2r" if c["initiator"].split(":")[0] == ours else "r2i"
        theirs = "r2i" if mine == "i2r" else "i2r"
        summ["ours_role"] = "initiator" if mine == "i2r" else "responder"
        for k in list(summ):
            if k.startswith(mine + "_"):
                summ["ours_" + k[4:]] = summ[k]
            elif k.startswith(theirs + "_"):
                summ["siw_" + k[4:]] = summ[k]
    return summ


def decode_stream(st, side, crc, out):
    if st["mpa"] is None:
        if len(st["data"]) < 20:
            if not (KEY_REQ.startswith(bytes(st["data"])) or KEY_REP.startswith(bytes(st["data"]))):
                st["mpa"] = "none"
            return
        if bytes(st["data"][:16]) not in (KEY_REQ, KEY_REP):
            st["mpa"] = "none"
            out("         %s data does not start with an MPA key: raw %s" % (side, bytes(st["data"][:64]).hex()))
            return
        need = 20 + struct.unpack("!H", bytes(st["data"][18:20]))[0]
        if len(st["data"]) < need:
            return
        d = parse_mpa(bytes(st["data"][:need]))
        del st["data"][:need]
        st["mpa"] = d
        crc[1][side] = d
        crc[0] = crc[0] or bool(d.get("c"))
        for line in describe_mpa(d):
            out("         %s %s" % (side, line))
    if st["mpa"] == "none":
        if st["data"]:
            out("         %s raw %d bytes: %s" % (side, len(st["data"]), bytes(st["data"][:64]).hex()))
            st["data"].clear()
        return
    # FPDUs flow only after both frames; CRC on if either C=1
    fs, used = split_fpdus(st["data"], crc[0])
    del st["data"][:used]
    for f in fs:
        st["fpdus"] += 1
        out("         %s #%d hex %s" % (side, st["fpdus"], f["hex"][:200] + ("..." if len(f["hex"]) > 200 else "")))
        for line in describe_fpdu(f):
            out("         %s   %s" % (side, line))


# ------------------------------------------------------------------------------------ selftest
def selftest():
    ok = True

    def chk(name, got, exp):
        nonlocal ok
        good = got == exp
        ok &= good
        print("%-40s %s%s" % (name, "ok" if good else "FAIL", "" if good else " got %r expected %r" % (got, exp)))

    chk("crc32c('123456789')", crc32c(b"123456789"), 0xE3069283)
    chk("crc32c(32 x 00)", crc32c(bytes(32)), 0x8A9136AA)
    chk("crc32c(32 x ff)", crc32c(b"\xff" * 32), 0x62A8AB43)
    chk("enh block p2p example", enh_block(True, True, 16, True, True, 8).hex(), "c010c008")
    rq = mpa_frame(KEY_REQ, 2, enh={"a": 0, "b": 0, "ird": 1, "c": 0, "d": 0, "ord_": 1})
    chk("siw default request", rq.hex(), "4d504120494420526571204672616d651002000400010001")
    f = fpdu(untagged(3, 0, 1, 0, b"x" * 13), True)
    chk("send 13B fpdu length", len(f), 40)
    # terminate vector fpdu-terminate-ddp-tagged-bounds (RFC layout)
    v = bytes.fromhex("00264147000000000000000200000001000000001101c000004ec1401a2b3c4d0000000000100000ccb7ac3a")
    fs, _ = split_fpdus(v, True)
    t = fs[0]["ddp"]["term"]
    chk("vector terminate crc", fs[0]["crc_check"], "ok")
    chk("vector terminate L/E/C", t["lec"], "1/1/01")
    chk("vector terminate layout", t["layout"], "rfc5040")
    chk("vector terminate seg len", t["ddp_segment_length"], 78)
    # bit-mirrored reading of a CRC-error terminate as siw-interop.md §F predicts
    u = untagged(7, 2, 1, 0, bytes.fromhex("02020000"))
    t = decode_ulpdu(u)["term"]
    chk("mirrored 02 02 00 00 -> 2/0/02", (t["lec"], t["layout"]), ("2/0/02", "bit-mirrored"))
    t = decode_ulpdu(untagged(7, 2, 1, 0, bytes.fromhex("20060000")))["term"]
    chk("tie 20 06 00 00 -> 0/2/06 (siw)", (t["lec"], t["layout"]), ("0/2/06", "tie->bit-mirrored"))
    t = decode_ulpdu(untagged(7, 2, 1, 0, bytes.fromhex("11000300") + bytes(2 + 14)))["term"]
    chk("flags 0x03 -> mirrored M,D", (t["lec"], t["m"], t["d"], t["layout"]), ("1/1/00", 1, 1, "bit-mirrored"))
    rt = terminate(2, 0, 2)
    chk("rfc terminate 2/0/02 ctrl", rt[18:22].hex(), "20020000")
    chk("rping pattern", rping_pattern(0, 26), b"rdma-ping-0: ABCDEFGHIJKL\x00")
    return 0 if ok else 1


# ------------------------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("connect", help="MPA Initiator")
    c.add_argument("host")
    c.add_argument("port", type=int)
    c.add_argument("--no-request", action="store_true", help="connect TCP but never send the MPA Request")
    c.add_argument("--request-delay", type=float, default=0.0)
    c.add_argument("--reply-timeout", type=float, default=15.0)
    l = sub.add_parser("listen", help="MPA Responder")
    l.add_argument("bind")
    l.add_argument("port", type=int)
    l.add_argument("--reply", default="accept", choices=["accept", "reject", "none"])
    l.add_argument("--reply-delay", type=float, default=0.0)
    l.add_argument("--no-p2p", action="store_true", help="answer A=0 even if the Request has A=1")
    l.add_argument("--ready-file", help="touch this file once listening")
    for p in (c, l):
        mpa_args(p)
        p.add_argument("--do", action="append", help="action (see ACTIONS)")
        p.add_argument("--expect", action="append", help="key=value[|value] on the summary")
        p.add_argument("--linger", type=float, default=2.0, help="receive this long after the actions")
        p.add_argument("--close", default="fin", choices=["fin", "rst", "none", "shutdown"])
        p.add_argument("--timeout", type=float, default=30.0)
        p.add_argument("--force-crc", choices=["on", "off"], help="override the negotiated CRC state")
        p.add_argument("--tx-crc", default="auto", choices=["auto", "good", "bad", "zero"],
                       help="CRC field of every FPDU we send (auto: CRC32c if negotiated, else zeros)")
        p.add_argument("--no-serve-reads", dest="serve_reads", action="store_false")
        p.add_argument("--max-ulpdu", type=int, default=1024, help="largest ULPDU we send (default 1024)")
        p.add_argument("--stop-on-fail", action="store_true")
        p.add_argument("--settle", type=float, default=0.0,
                       help="initiator: wait this long after an accepting Reply before the first action")
        p.add_argument("--json", help="write the summary as JSON")
        p.add_argument("--summary", action="store_true", help="print SUMMARY key=value lines")
        p.add_argument("--quiet", action="store_true")
    d = sub.add_parser("decode-pcap")
    d.add_argument("file")
    for p in (c, l, d):
        p.add_argument("--term-tie", default="bit-mirrored", choices=["bit-mirrored", "rfc5040"],
                       help="Terminate layout to assume when both readings are plausible (default: siw's)")
    ps = sub.add_parser("pcap-summary", help="one connection of a capture as a summary (--expect, --json)")
    ps.add_argument("file")
    ps.add_argument("--ours", help="our IP address: our Terminates are read in the RFC 5040 layout, the peer's "
                                   "in siw's; adds ours_*/siw_* keys")
    ps.add_argument("--conn", type=int, default=0, help="which TCP connection of the capture (default 0)")
    ps.add_argument("--expect", action="append", help="key=value[|value] on the summary")
    ps.add_argument("--json", help="write the summary as JSON")
    ps.add_argument("--summary", action="store_true", help="print SUMMARY key=value lines")
    h = sub.add_parser("decode-hex")
    h.add_argument("hex")
    h.add_argument("--crc", action="store_true", help="CRC negotiated (verify it)")
    h.add_argument("--term-tie", default="bit-mirrored", choices=["bit-mirrored", "rfc5040"])
    sub.add_parser("selftest")
    a = ap.parse_args()
    global TERM_TIE
    TERM_TIE = getattr(a, "term_tie", TERM_TIE)
    if a.mode == "decode-pcap":
        decode_pcap(a.file)
        return 0
    if a.mode == "pcap-summary":
        summ = pcap_summary(a.file, a.ours, a.conn)
        lines = []
        ok = check_expect(summ, a.expect or [], lines.append)
        summ["expect_ok"] = ok
        if a.json:
            with open(a.json, "w") as f:
                json.dump(summ, f, indent=1, sort_keys=True)
        for l in lines:
            print(l)
        if a.summary:
            for k, v in sorted(flatten(summ).items()):
                print("SUMMARY %s=%s" % (k, v))
        return 0 if ok else 1
    if a.mode == "decode-hex":
        b = bytes.fromhex(a.hex.replace(" ", ""))
        if b[:16] in (KEY_REQ, KEY_REP):
            print("\n".join(describe_mpa(parse_mpa(b))))
        else:
            fs, used = split_fpdus(b, a.crc)
            for f in fs:
                print("\n".join(describe_fpdu(f)))
            if used < len(b):
                print("(%d trailing bytes)" % (len(b) - used))
        return 0
    if a.mode == "selftest":
        return selftest()
    a.rev_set = "--rev" in sys.argv
    return run_peer(a)


if __name__ == "__main__":
    sys.exit(main())

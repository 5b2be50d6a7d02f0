#!/usr/bin/env python3
"""Extract siw wire fixtures for the Java conformance suite from a run-matrix.sh results directory.

  interop/make-fixtures.py RESULTS_DIR DEST_DIR [--iwarp-only]   (DEST_DIR: conformance-tests/src/test/resources/siw)

--iwarp-only writes only the fixtures taken from the iwarp cells (and the README), leaving the others as they are.

For each fixture below it writes DEST_DIR/<name>.vec (the golden-vector format of
testkit/src/main/resources/vectors: key: value lines, exact bytes in `hex`, decoded fields) taken from
the cell's JSON summary, copies the cell's capture as DEST_DIR/pcap/<cell>.pcap, and writes README.md
describing every file. Stdlib only; the decoding is iwarp_probe.py's.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iwarp_probe as P  # noqa: E402

# name, cell, what ("request" | "reply" | ("rx", opname, index) ), description
FIXTURES = [
    ("siw-mpa-request-default", "mpa-req-default", "request",
     "siw's MPA Request with default settings (rping -c): Rev 2, S=1, IRD=ORD=1"),
    ("siw-mpa-request-crc", "mpa-req-crc", "request", "siw's Request with mpa_crc_required=Y: C=1"),
    ("siw-mpa-request-p2p", "mpa-req-p2p", "request",
     "siw's Request with peer_to_peer=Y: A=1, C and D (Write and Read RTR) offered, never B"),
    ("siw-mpa-request-rev1", "mpa-req-rev1", "request", "siw's Request with mpa_version=1: Rev 1, no S, PD_Length 0"),
    ("siw-mpa-request-gso", "mpa-req-gso", "request", "siw's Request with try_gso=Y: the siw-private bit 0x08 of byte 16"),
    ("siw-mpa-reply-default", "mpa-rep-default", "reply",
     "siw's Reply (rping -s) to Rev 2/S/IRD=ORD=16: flags echoed, IRD/ORD granted as asked"),
    ("siw-mpa-reply-crc", "mpa-rep-crc", "reply", "siw's Reply to a C=1 Request: C=1"),
    ("siw-mpa-reply-rev1", "mpa-rep-rev1", "reply", "siw's Reply to a Rev 1 Request: Rev 1, no S, PD_Length 0"),
    ("siw-mpa-reply-ird-ord-3fff", "mpa-rep-ird3fff-ord3fff", "reply",
     "siw's Reply to IRD=ORD=0x3FFF: 128/128 (siw clamps; it does not echo 0x3FFF as RFC 6581 9.1 asks)"),
    ("siw-mpa-reply-p2p-write", "mpa-rep-p2p-BCD", "reply",
     "siw's Reply to A=1 offering B+C+D: A=1, C (Write RTR) chosen"),
    ("siw-mpa-reply-p2p-read", "mpa-rep-p2p-D", "reply", "siw's Reply to A=1 offering only D: A=1, D (Read RTR)"),
    ("siw-mpa-reply-p2p-send-only", "mpa-rep-p2p-B", "reply",
     "siw's Reply to A=1 offering only B (Send RTR): siw answers C (Write RTR), which was not offered"),
    ("siw-mpa-reject-markers", "mpa-rep-markers", "reply",
     "siw rejects an M=1 Request: R=1, M cleared, S=1 with an all-zero IRD/ORD block"),
    ("siw-mpa-reject-crc-strict", "mpa-rep-siw-crc-strict", "reply",
     "siw with mpa_crc_strict=Y rejects a C=1 Request: R=1, C cleared"),
    ("siw-rtr-write", "mpa-req-p2p", ("rx", None, 0),
     "siw's zero-length RDMA Write RTR (initiator, peer_to_peer=Y, Write RTR chosen): STag 1, TO 0"),
    ("siw-rtr-read", "mpa-req-p2p-read", ("rx", None, 0),
     "siw's zero-length Read Request RTR: QN 1 MSN 1, sink STag 0/TO 0, size 0, source STag 1/TO 0"),
    ("siw-fpdu-send-advert", "probe-rping-server", ("rx", "send", 0),
     "rping -c's first Send (source advert: VA, STag, length), MSN 1, CRC field zero (CRC off)"),
    ("siw-fpdu-read-request", "probe-rping-client", ("rx", "rdma-read-request", 0),
     "rping -s's Read Request: sink STag = siw lkey, sink TO = siw VA, QN 1 MSN 1"),
    ("siw-fpdu-read-response-crc", "probe-rping-server-crc", ("rx", "rdma-read-response", 0),
     "siw's Read Response with CRC32c (sent LSB first)"),
    ("siw-fpdu-write-pad-nonzero", "fpdu-pad-s26", ("rx", "rdma-write", 0),
     "siw's 26-byte RDMA Write: 2 pad bytes that are NOT zero (leftover header bytes)"),
    ("siw-fpdu-write-mss", "fpdu-mss-write-4096", ("rx", "rdma-write", 0),
     "first segment of a 4096-byte RDMA Write: ULPDU_Length 1442, FPDU 1448 = TCP MSS, L=0"),
    ("siw-term-crc", "term-crc", ("rx", "terminate", 0), "Terminate for a CRC error: LLP/0/0x02, no headers"),
    ("siw-term-write-invalid-stag", "term-write-invalid-stag", ("rx", "terminate", 0),
     "Terminate for an RDMA Write to an unknown STag: DDP/1/0x00, M D, segment length = payload length"),
    ("siw-term-write-wrong-key", "term-write-wrong-key", ("rx", "terminate", 0),
     "Terminate for a Write to a valid index with a wrong key byte: DDP/1/0x00"),
    ("siw-term-write-bounds", "term-write-bounds", ("rx", "terminate", 0),
     "Terminate for a Write beyond the advertised region: DDP/1/0x01"),
    ("siw-term-read-bounds", "term-read-bounds", ("rx", "terminate", 0),
     "Terminate for a Read Request beyond the region: RDMAP/1/0x01, M D R; copied MSN = read size (siw quirk)"),
    ("siw-term-read-invalid-stag", "term-read-invalid-stag", ("rx", "terminate", 0),
     "Terminate for a Read Request with an unknown source STag: RDMAP/1/0x00, M D R"),
    ("siw-term-send-too-long", "term-send-too-long", ("rx", "terminate", 0),
     "Terminate for a Send longer than the posted receive: DDP/2/0x02 (not 0x05)"),
    ("siw-term-send-no-recv", "term-send-no-recv", ("rx", "terminate", 0),
     "Terminate for a Send with no receive posted: DDP/2/0x02"),
    ("siw-term-send-bad-msn", "term-send-bad-msn", ("rx", "terminate", 0), "Terminate for a Send with MSN 7: DDP/2/0x03"),
    ("siw-term-send-bad-qn", "term-send-bad-qn", ("rx", "terminate", 0), "Terminate for a Send on QN 5: DDP/2/0x01"),
    ("siw-term-ird-exceeded", "term-ird-zero", ("rx", "terminate", 0),
     "Terminate for a Read Request beyond siw's IRD (IRD 0): RDMAP/2/0x07, M D, untagged header only"),
    ("siw-term-opcode-8", "term-opcode-8", ("rx", "terminate", 0),
     "Terminate for opcode 8 (RFC 7306): RDMAP/2/0x06, no headers; ambiguous without siw's layout"),
    ("siw-term-ddp-version-untagged", "term-ddp-version-untagged", ("rx", "terminate", 0),
     "Terminate for DDP version 0 on a Send: DDP/2/0x06, no headers"),
    ("siw-term-ddp-version-tagged", "term-ddp-version-tagged", ("rx", "terminate", 0),
     "Terminate for DDP version 2 on a Write: DDP/1/0x04, no headers"),
    ("siw-term-rdmap-version", "term-rdmap-version", ("rx", "terminate", 0),
     "Terminate for RDMAP version 2: RDMAP/2/0x05, no headers"),
    ("siw-term-mpa-insufficient-ird", "mpa-req-reply-ord-200", ("rx", "terminate", 0),
     "siw initiator's Terminate when our Reply ORD (200) exceeds its max IRD: LLP/0/0x06"),
    ("siw-term-mpa-no-matching-rtr", "mpa-req-p2p-send", ("rx", "terminate", 0),
     "siw initiator's Terminate when our Reply picks only the Send RTR: LLP/0/0x07"),
]
# From the iwarp cells (iwarp4j's tools against siw): siw's octets taken from the cell's capture (the host
# side of the tap, our address 10.77.0.1), what = "request" | "reply" | ("siw", opname or None, index).
OURS = "10.77.0.1"
IWARP_FIXTURES = [
    ("siw-mpa-reply-to-iwarp", "iwarp-mpa-to-siw-rev2", "reply",
     "siw's Reply (rping -s) to iwarp rping -c's Request (Rev 2, C=1, IRD=ORD=1): C=1, IRD/ORD 1/1"),
    ("siw-mpa-reply-private-data", "iwarp-mpa-to-siw-private-data", "reply",
     "siw's accepting Reply with application private data 5eed0001 (siwlab-cm, rdma_accept with private data)"),
    ("siw-mpa-reject-private-data", "iwarp-mpa-to-siw-reject-private-data", "reply",
     "siw's reject (rdma_reject) with application private data c0ffee0123: R=1, S=1, the application's IRD/ORD "
     "block 1/1 (not all-zero as in siw's own rejects)"),
    ("siw-mpa-request-private-data", "iwarp-mpa-from-siw-private-data", "request",
     "siw's Request with application private data 01020304 (siwlab-cm, rdma_connect with private data)"),
    ("siw-mpa-request-crc-to-iwarp", "iwarp-mpa-from-siw-crc-required-siw-only", "request",
     "siw's Request with mpa_crc_required=Y (C=1) to iwarp rping -s --crc off; iwarp must answer C=1 (B2)"),
    ("siw-fpdu-read-request-crc", "iwarp-rping-client-s64", ("siw", "rdma-read-request", 0),
     "siw rping -s's first Read Request to iwarp rping -c, CRC32c negotiated (verified)"),
    ("siw-fpdu-write-crc", "iwarp-rping-client-s64", ("siw", "rdma-write", 0),
     "siw rping -s's first RDMA Write (64 octets) into iwarp's sink buffer, CRC32c (verified)"),
    ("siw-fpdu-send-advert-crc", "iwarp-rping-server-s64", ("siw", "send", 0),
     "siw rping -c's first Send (source advert) to iwarp rping -s, CRC32c (verified)"),
    ("siw-rtr-write-crc", "iwarp-mpa-from-siw-p2p-write-rtr", ("siw", None, 0),
     "siw's zero-length Write RTR (STag 1, TO 0) with CRC32c, to iwarp rping -s --p2p write"),
    ("siw-rtr-read-crc", "iwarp-mpa-from-siw-p2p-read-rtr", ("siw", None, 0),
     "siw's zero-length Read Request RTR with CRC32c, to iwarp rping -s --p2p read"),
    ("siw-read-response-to-read-rtr", "iwarp-mpa-to-siw-p2p-read-rtr", ("siw", None, 0),
     "siw's zero-length Read Response to iwarp's Read RTR (STag/TO copied from the sink fields 0/0), CRC32c"),
    ("siw-term-iwarp-write-bad-stag", "iwarp-err-write-invalid-stag-to-siw", ("siw", "terminate", 0),
     "siw's Terminate for iwarp's RDMA Write to the sink STag with its key octet flipped: DDP/1/0x00, M D, "
     "bit-mirrored, with a valid CRC32c"),
    ("siw-term-iwarp-read-beyond", "iwarp-err-read-beyond-region-to-siw", ("siw", "terminate", 0),
     "siw's Terminate for iwarp's RDMA Read 8 octets past the advertised start: RDMAP/1/0x01, M D R (copied MSN = "
     "read size), with a valid CRC32c"),
    ("siw-term-iwarp-send-no-recv", "iwarp-err-send-no-recv-to-siw", ("siw", "terminate", 0),
     "siw's Terminate for iwarp's second go-ahead Send (no receive posted): DDP/2/0x02, M D, valid CRC32c"),
    ("siw-term-mpa-setup-no-crc", "iwarp-mpa-from-siw-p2p-send-rtr", ("siw", "terminate", 0),
     "siw Initiator's Terminate 2/0/07 (iwarp's Reply allowed only the Send RTR) as its first FPDU: CRC field "
     "ZERO although the Reply negotiated CRC (M17)"),
]
PCAPS = sorted({f[1] for f in FIXTURES} | {f[1] for f in IWARP_FIXTURES} | {"iwarp-rping-client-s64",
                                                                          "iwarp-rping-server-s64",
                                                                          "iwarp-rdma-client-to-siw",
                                                                          "iwarp-rdma-server-from-siw",
                                                                          "iwarp-err-write-invalid-stag-from-siw",
                                                                          "iwarp-err-read-beyond-region-from-siw",
                                                                          "iwarp-err-send-no-recv-from-siw",
                                                                          "iwarp-mpa-from-siw-reject-private-data",
                                                                          "iwarp-mpa-to-siw-p2p-send-rtr"} | {"mpa-rep-responder-first", "mpa-req-responder-sends-first",
                                             "mpa-rep-accept-race", "mpa-req-reject-enh", "mpa-req-reject-plain",
                                             "mpa-req-no-reply", "mpa-rep-pd-253", "mpa-rep-extra"})


def vec_lines_mpa(name, desc, hexs, source):
    d = P.parse_mpa(bytes.fromhex(hexs))
    out = ["# siw wire fixture (format: testkit vectors README; captured from Linux siw, see README.md)",
           "name: " + name, "kind: mpa-" + ("request" if d.get("key") == "Request" else "reply"),
           "source: " + source, "desc: " + desc, "length: %d" % (len(hexs) // 2), "hex: " + hexs,
           "key_ascii: " + bytes.fromhex(hexs)[:16].decode("ascii", "replace")]
    for k in ("m", "c", "r", "s", "res", "rev", "pd_length"):
        out.append("%s: %s" % ("s_rfc6581" if k == "s" else "res_low4" if k == "res" else k, d[k]))
    out.append("private_data_hex: " + (d["pd_hex"] or "-"))
    if "enh" in d:
        e = d["enh"]
        out += ["enh.a_peer_to_peer: %d" % e["a"], "enh.b_zero_len_send_rtr: %d" % e["b"], "enh.ird: %d" % e["ird"],
                "enh.c_zero_len_write_rtr: %d" % e["c"], "enh.d_zero_len_read_rtr: %d" % e["d"], "enh.ord: %d" % e["ord"],
                "ulp_private_data_hex: " + (d.get("ulp_pd_hex") or "-")]
    return out


def vec_lines_fpdu(name, desc, f, crc_on, source):
    raw = bytes.fromhex(f["hex"])
    fs, _ = P.split_fpdus(raw, crc_on)
    g = fs[0]
    u = g["ddp"]
    n = u["ulpdu_length"]
    out = ["# siw wire fixture (format: testkit vectors README; captured from Linux siw, see README.md)",
           "name: " + name, "kind: fpdu", "source: " + source, "desc: " + desc, "length: %d" % len(raw),
           "hex: " + f["hex"], "stream_offset: n/a (no markers)", "ulpdu_length: %d" % n,
           "pad_length: %d" % g["pad_len"], "pad_hex: " + (g["pad_hex"] or "-"),
           "ulpdu_hex: " + raw[2:2 + n].hex(), "crc_negotiated: %d" % int(crc_on), "crc_wire_bytes: " + g["crc_hex"],
           "crc_check: " + g["crc_check"],
           "ddp.t: %d" % u["t"], "ddp.l: %d" % u["l"], "ddp.rsvd: %d" % u["ddp_rsvd"], "ddp.dv: %d" % u["dv"],
           "rdmap.rv: %d" % u["rv"], "rdmap.rsv: %d" % u["rsv"], "rdmap.opcode: %d" % u["opcode"],
           "rdmap.opcode_name: " + u["op"]]
    if u["t"]:
        out += ["ddp.stag: " + u["stag"], "ddp.to: " + u["to"], "ulp_payload_length: %d" % u["payload_len"]]
    else:
        out += ["ddp.rsvdulp_8_39: " + u["inv_stag"], "ddp.qn: %d" % u["qn"], "ddp.msn: %d" % u["msn"],
                "ddp.mo: %d" % u["mo"], "ddp_payload_length: %d" % u["payload_len"]]
    if "rreq" in u:
        r = u["rreq"]
        out += ["rr.sink_stag: " + r["sink_stag"], "rr.sink_to: " + r["sink_to"], "rr.rdma_rd_sz: %d" % r["size"],
                "rr.src_stag: " + r["src_stag"], "rr.src_to: " + r["src_to"]]
    if "term" in u:
        t = u["term"]
        out += ["term.control_word_hex: " + t["ctrl_hex"],
                "term.layout: " + t["layout"].replace("tie->", "") + (" (both readings plausible; siw's layout)"
                                                                      if t["layout"].startswith("tie") else ""),
                "term.layer: %d" % t["layer"], "term.etype: %d" % t["etype"], "term.error_code: 0x%02x" % t["code"],
                "term.m: %d" % t["m"], "term.d: %d" % t["d"], "term.r: %d" % t["r"]]
        rf = t["readings"]["rfc5040"]
        out.append("term.rfc5040_reading: layer %d etype %d code 0x%02x m %d d %d r %d reserved 0x%x"
                   % (rf["layer"], rf["etype"], rf["code"], rf["m"], rf["d"], rf["r"], rf["reserved"]))
        if "ddp_segment_length" in t:
            out += ["term.ddp_segment_length: %d" % t["ddp_segment_length"],
                    "term.ddp_header_hex: " + t["ddp_hdr"]["hex"]]
        if "rdma_hdr" in t:
            out.append("term.rdma_header_hex: " + t["rdma_hdr"]["hex"])
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    # --iwarp-only: write only the fixtures of the iwarp cells (and the README); the siw-only fixtures already
    # in DEST stay byte for byte as they are (tests elsewhere may pin their STags and addresses)
    iwarp_only = "--iwarp-only" in sys.argv
    src, dst = args[0], args[1]
    cells = os.path.join(src, "cells")
    os.makedirs(os.path.join(dst, "pcap"), exist_ok=True)
    rows = []
    for name, cell, what, desc in FIXTURES:
        if iwarp_only:
            rows.append((name + ".vec", desc, cell))
            continue
        js = json.load(open(os.path.join(cells, cell + ".json")))
        source = "interop/run-matrix.sh cell %s (pcap/%s.pcap)" % (cell, cell)
        if what in ("request", "reply"):
            lines = vec_lines_mpa(name, desc, js[what]["hex"], source)
        else:
            _, op, idx = what
            fl = [f for f in js["rx_fpdus"] if op is None or f["op"] == op]
            lines = vec_lines_fpdu(name, desc, fl[idx], bool(js.get("crc")), source)
        with open(os.path.join(dst, name + ".vec"), "w") as f:
            f.write("\n".join(lines) + "\n")
        rows.append((name + ".vec", desc, cell))
    for name, cell, what, desc in IWARP_FIXTURES:
        pcap = os.path.join(cells, cell + ".pcap")
        c = P.pcap_connection(pcap, OURS)
        if c is None:
            raise SystemExit("no connection in %s" % pcap)
        source = "interop/run-matrix.sh cell %s (pcap/%s.pcap; iwarp4j on %s)" % (cell, cell, OURS)
        if what in ("request", "reply"):
            lines = vec_lines_mpa(name, desc, c[what]["hex"], source)
        else:
            _, op, idx = what
            siw = "r2i" if c["initiator"].split(":")[0] == OURS else "i2r"
            fl = [f for f in c["sides"][siw]["fpdus"] if op is None or f["ddp"].get("op") == op]
            lines = vec_lines_fpdu(name, desc, fl[idx], c["crc"], source)
        with open(os.path.join(dst, name + ".vec"), "w") as f:
            f.write("\n".join(lines) + "\n")
        rows.append((name + ".vec", desc, cell))
    for cell in PCAPS:
        p = os.path.join(cells, cell + ".pcap")
        if iwarp_only and not cell.startswith("iwarp-"):
            continue
        if os.path.exists(p):
            shutil.copy(p, os.path.join(dst, "pcap", cell + ".pcap"))
    with open(os.path.join(dst, "README.md"), "w") as f:
        f.write(README_HEAD)
        f.write("| file | what | cell / capture |\n|---|---|---|\n")
        for n, d, c in rows:
            f.write("| `%s` | %s | `pcap/%s.pcap` |\n" % (n, d.replace("|", "\\|"), c))
        f.write("\nOther captures in `pcap/` (whole connections, host side of the lab's tap):\n\n")
        for c in PCAPS:
            if c not in {r[2] for r in rows}:
                f.write("- `pcap/%s.pcap`: see `interop/captures/%s.txt` and FINDINGS.md\n" % (c, c))
    print("wrote %d fixtures and %d captures to %s" % (len(rows), len(PCAPS), dst))


README_HEAD = """# siw wire fixtures

Bytes that Linux soft-iWARP (siw, Debian 6.1 kernel, `siw.ko` built by `interop/build.sh`) put on the
wire in the project's siw lab, for the Java conformance suite to replay and decode. Generated by
`interop/make-fixtures.py` from a `interop/run-matrix.sh` run; the facts behind them are in
`interop/FINDINGS.md`, the full decoded captures in `interop/captures/`.

- `*.vec` use the golden-vector format of `testkit/src/main/resources/vectors` (`key: value` lines,
  exact octets in `hex`) plus `source:` (the matrix cell and its capture) and, for Terminates,
  `term.control_word_hex`, `term.layout` and `term.rfc5040_reading`. **siw writes the Terminate control
  word bit-mirrored** (Layer in the low nibble of octet 0, EType in the high nibble, M/D/R = 0x01/0x02/0x04
  in octet 2): `term.layer/etype/m/d/r` are the values siw meant; `term.rfc5040_reading` is what a strict
  RFC 5040 decoder reads from the same bytes.
- CRC: `crc_negotiated: 0` fixtures carry siw's all-zero CRC field; `crc_check: ok` ones were verified.
- STags, TOs and addresses are those of that run (siw STags are `index << 8 | key`, key 0x00; TOs are
  process virtual addresses).
- `pcap/` holds the whole TCP connection of each cell (Ethernet, host side of the tap; decode with
  `interop/iwarp_probe.py decode-pcap FILE` or Wireshark "Decode As... iWARP MPA").
- `pcap/iwarp-*.pcap` are conversations between iwarp4j's tools (host, 10.77.0.1) and siw (guest, 10.77.0.2):
  one side is ours, the other siw's, so they replay either role against the stack. In them iwarp4j sends its
  Terminates in the RFC 5040 layout and siw in its mirrored one; `iwarp_probe.py pcap-summary FILE --ours
  10.77.0.1` decodes each with its sender's layout.

"""

if __name__ == "__main__":
    main()

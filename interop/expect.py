#!/usr/bin/env python3
"""Judge one connection of a capture by what `iwarp explain --pcap FILE --summary` decoded.

  interop/expect.py SUMMARY.json --ours IP [--siw-summary SUMMARY2.json] [--conn N] [--json OUT] [KEY=VALUE ...]

SUMMARY.json is the output of `iwarp explain --pcap FILE --summary` (the decoding is explain's; this script
only flattens its summary of connection N, 0-based, into the keys below and compares). Our side is the one
whose address is IP, the other is siw's; --siw-summary takes siw's side from a second summary of the same
capture (explain --terminate-layout siw: siw's ambiguous Terminates read in its mirrored layout). VALUE may list alternatives with '|'. Prints the flattened keys,
one per line, then each expectation; exit status 0 iff every expectation holds (2: no such connection).

Keys: mpa (accept|reject|none), crc (1|0), crc_bad (FPDUs with a bad CRC, both ways), request.* and reply.*
(c m r s rev pd_length hex, enh.a/b/c/d/ird/ord, ulp_pd_hex), and per side P = ours|siw: P_count, P_ops
(comma list), P_n_OP, P_first, P_first_hex, P_zero_len_writes, P_nonzero_pads, P_max_ulpdu, P_term (L/E/C of its first Terminate, or
none), P_term_mdr, P_term_layout (rfc|siw-mirrored), P_term_ctrl, P_close (FIN|RST|none).
"""
import json
import sys


def op_name(op):
    return op.lower().replace("_", "-")


def frame(prefix, f, out):
    if not f:
        return
    rtr = f.get("rtr") or []
    for k, v in (("c", f["c"]), ("m", f["m"]), ("r", f["r"]), ("s", f["s"])):
        out[prefix + k] = int(v)
    out[prefix + "rev"] = f["rev"]
    out[prefix + "pd_length"] = f["pdLength"]
    out[prefix + "hex"] = f["octets"]
    out[prefix + "ulp_pd_hex"] = f.get("privateData", "")
    if f["s"] and "ird" in f:
        out[prefix + "enh.a"] = int(f["peerToPeer"])
        for flag, name in (("b", "send"), ("c", "write"), ("d", "read")):
            out[prefix + "enh." + flag] = int(any(name in str(x).lower() for x in rtr))
        out[prefix + "enh.ird"] = f["ird"]
        out[prefix + "enh.ord"] = f["ord"]


def side(prefix, s, out):
    out[prefix + "count"] = s["fpdus"]
    out[prefix + "ops"] = ",".join(op_name(o) for o in s["ops"])
    for op, n in s["opCounts"].items():
        out[prefix + "n_" + op_name(op)] = n
    out[prefix + "first"] = op_name(s["first"]["op"]) if s["first"] else "none"
    out[prefix + "first_hex"] = s["first"]["octets"] if s["first"] else ""
    out[prefix + "zero_len_writes"] = s["zeroLengthWrites"]
    out[prefix + "nonzero_pads"] = s["nonZeroPads"]
    out[prefix + "max_ulpdu"] = max(s["ulpduLengths"] or [0])
    t = s["terminate"]
    if t:
        out[prefix + "term"] = "%d/%d/%02x" % (t["layer"], t["etype"], t["code"])
        out[prefix + "term_mdr"] = "%d%d%d" % (t["m"], t["d"], t["r"])
        out[prefix + "term_layout"] = t["layout"]
        out[prefix + "term_ctrl"] = t.get("controlWord", "")
    else:
        out[prefix + "term"] = "none"
    out[prefix + "close"] = s["close"]


def flatten(c, ours, c_siw=None):
    c_siw = c_siw or c
    out = {"mpa": c["mpa"], "crc": int(c["crc"])}
    frame("request.", c["request"], out)
    frame("reply.", c["reply"], out)
    we_initiate = c["initiator"].rsplit(":", 1)[0] == ours
    side("ours_", c["initiatorSent"] if we_initiate else c["responderSent"], out)
    side("siw_", c_siw["responderSent"] if we_initiate else c_siw["initiatorSent"], out)
    out["crc_bad"] = c["initiatorSent"]["crcErrors"] + c["responderSent"]["crcErrors"]
    return out


def main(argv):
    args, expects, ours, conn, out_json, siw_summary = [], [], None, 0, None, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--ours":
            ours = argv[i + 1]; i += 1
        elif a == "--conn":
            conn = int(argv[i + 1]); i += 1
        elif a == "--siw-summary":
            siw_summary = argv[i + 1]; i += 1
        elif a == "--json":
            out_json = argv[i + 1]; i += 1
        elif "=" in a:
            expects.append(a)
        else:
            args.append(a)
        i += 1
    if len(args) != 1 or ours is None:
        sys.exit(__doc__)
    try:
        conns = json.load(open(args[0]))
        conns_siw = json.load(open(siw_summary)) if siw_summary else conns
    except (OSError, ValueError) as e:
        print("no summary from iwarp explain: %s" % e)
        return 2
    if conn >= len(conns):
        print("the capture has %d connection(s), no connection %d" % (len(conns), conn))
        if out_json:
            json.dump({}, open(out_json, "w"))
        return 2
    flat = flatten(conns[conn], ours, conns_siw[conn] if conn < len(conns_siw) else None)
    if out_json:
        json.dump(flat, open(out_json, "w"), indent=1, sort_keys=True)
    for k in sorted(flat):
        print("%s=%s" % (k, flat[k]))
    ok = True
    for e in expects:
        k, want = e.split("=", 1)
        got = str(flat.get(k, "none"))
        good = got in want.split("|")
        ok &= good
        print("expect %s=%s: %s%s" % (k, want, "ok" if good else "FAILED", "" if good else " (got %s)" % got))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

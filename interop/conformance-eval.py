#!/usr/bin/env python3
"""The conformance cells' judgement of `iwarp conformance --json` output (interop/cells.sh).

  interop/conformance-eval.py merge OUT.json IN.json...
      the runs of several check groups as one document (runs, checks, totals added up)
  interop/conformance-eval.py eval JSON "TAG..." [STRICT_OF.json] ["RACY TAG..."]
      prints one line (counts, the known deviations measured); exit status 0 iff no check failed and every TAG
      was measured as a known deviation. With STRICT_OF (the --profile siw run of the same checks): 0 iff the
      failed checks of JSON are exactly the known checks of STRICT_OF, but for checks with a RACY deviation.
"""
import json
import sys


def by_id(i):
    return [int(x) for x in i.split(".")]


def ids(doc, status):
    return sorted((c["id"] for c in doc["checks"] if c["status"] == status), key=by_id)


def merge(out_file, files):
    out = {"runs": [], "checks": [], "totals": {"checks": 0, "passed": 0, "failed": 0, "known": 0, "skipped": 0}}
    for f in files:
        try:
            d = json.load(open(f))
        except Exception as e:
            out["runs"].append({"file": f, "error": str(e)})
            out["totals"]["failed"] += 1
            continue
        out["runs"].append({k: d[k] for k in ("target", "role", "app", "profile", "ms", "totals")})
        out["checks"] += d["checks"]
        for k in out["totals"]:
            out["totals"][k] += d["totals"][k]
    json.dump(out, open(out_file, "w"), indent=1)
    return 0


def evaluate(json_file, tags, strict_of="", racy_tags=""):
    try:
        d = json.load(open(json_file))
    except Exception as e:
        print("no JSON from iwarp conformance (%s)" % e)
        return 1
    t = d["totals"]
    known = sorted({p["deviation"] for c in d["checks"] if c["status"] == "known" for p in c["problems"]
                    if p["deviation"]})
    ok = True
    line = "%d checks: %d passed, %d known, %d skipped, %d failed" % (
        t["checks"], t["passed"], t["known"], t["skipped"], t["failed"])
    if strict_of:
        other = json.load(open(strict_of))
        want, got = ids(other, "known"), ids(d, "failed")
        # a racy deviation (siw does it now and then) may show in one run and not the other
        racy = set(racy_tags.split())
        flaky = {c["id"] for doc in (d, other) for c in doc["checks"] for p in c["problems"]
                 if p["deviation"] in racy}
        extra = [i for i in got if i not in want and i not in flaky]
        missing = [i for i in want if i not in got and i not in flaky]
        ok = not extra and not missing
        apart = sorted(flaky & (set(want) ^ set(got)), key=by_id)
        if ok and not apart:
            line += "; the failed checks are exactly the %d that --profile siw marks known" % len(want)
        elif ok:
            line += "; the failed checks are those --profile siw marks known, but for %s (racy: %s)" % (
                apart, " ".join(racy))
        else:
            line += "; MISMATCH with the --profile siw run: failed only here %s, known there but not failed here %s" \
                % (extra, missing)
    else:
        missing = [x for x in tags.split() if x not in known]
        failed = [c for c in d["checks"] if c["status"] == "failed"]
        if failed:
            line += "; FAILED: " + "; ".join("%s %s" % (c["id"], (c["actual"] or "")[:100]) for c in failed)
            ok = False
        if missing:
            line += "; expected deviations NOT measured: " + " ".join(missing)
            ok = False
        line += "; known deviations measured: " + " ".join(known)
    print(line)
    return 0 if ok else 1


def main(argv):
    if len(argv) >= 3 and argv[1] == "merge":
        return merge(argv[2], argv[3:])
    if 4 <= len(argv) <= 6 and argv[1] == "eval":
        return evaluate(*argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

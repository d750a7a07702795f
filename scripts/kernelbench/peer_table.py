#!/usr/bin/env python3
"""Markdown table of a peer run (the JSON lines of peer.py): docs/kernelbench.md, "The peer"."""
import json
import sys


def cell(row, key):
    v = row.get(key)
    return "—" if v is None else ("yes" if v else "no")


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    print("| project | task | compiled | host tiling | verified | cycles small / tail / perf | failure (whose) |")
    print("|---|---|---|---|---|---:|---|")
    counts = {"compiled": 0, "host_tiling": 0, "verified": 0}
    for r in rows:
        for k in counts:
            counts[k] += 1 if r.get(k) else 0
        cyc = " / ".join("{:,}".format(c["cycles"]) if c.get("cycles") else "—"
                         for c in (r.get("cases", {}).get(n, {}) for n in ("small", "tail", "perf")))
        fails = [(n, c) for n, c in r.get("cases", {}).items() if c.get("stage") != "verified"]
        for _, c in fails:  # rows written before peer.py told a race from a UB limit
            c["reason"] = c.get("reason", "").replace(
                "our simulator limit: race:", "their kernel's unsynchronised pipes (a race the simulator reports; "
                                              "their build may order it): race:")
        text = "; ".join("%s: %s" % (n, c.get("reason", "")[:140]) for n, c in fails) or r.get("reason", "")
        reason = text.replace("|", "/").replace("\n", " ")
        print("| %s | %s | %s | %s | %s | %s | %s |" % (r["project"], r["task"], cell(r, "compiled"),
                                                       cell(r, "host_tiling"), cell(r, "verified"), cyc, reason))
    print()
    print("%d projects: %d compiled, %d ran their host tiling on every case, %d verified on every case." % (
        len(rows), counts["compiled"], counts["host_tiling"], counts["verified"]))


if __name__ == "__main__":
    main()

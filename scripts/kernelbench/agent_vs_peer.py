#!/usr/bin/env python3
"""The agent against the peer (docs/kernelbench.md): a `sage bench --out` report on the KernelBench
tasks and a peer run (peer.py's JSON lines) compared on the simulated device, perf case.

- correct rate: runs of the agent with a correct kernel, over the runs;
- fast_1 vs peer: over the tasks where both verified, the share where our best kernel takes at most
  the peer kernel's cycles on the perf case;
- geometric mean of peer cycles / our cycles over the same tasks (> 1: ours is faster);
- the same per category.

Usage: agent_vs_peer.py BENCH.json PEER.jsonl [--all-cases]
  --all-cases: count a peer kernel only when it verified on every case of the task (small, tail
               and perf), not only on the perf case whose cycles are compared
"""
import collections
import json
import math
import sys


def main():
    args = [a for a in sys.argv[1:] if a != "--all-cases"]
    strict = "--all-cases" in sys.argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    sys.argv[1:3] = args
    bench = json.load(open(sys.argv[1]))
    peer = {}
    for line in open(sys.argv[2]):
        if line.strip():
            r = json.loads(line)
            cyc = r.get("cases", {}).get("perf", {}).get("cycles")
            if cyc and (r.get("verified") or not strict):
                peer["kb" + r["task"]] = cyc  # folder 19_relu holds task kb19_relu
    rows = bench["tasks"]
    cats = collections.defaultdict(lambda: {"runs": 0, "correct": 0, "both": 0, "fast1": 0, "logs": []})
    for r in rows:
        for key in (r["category"], "all"):
            c = cats[key]
            c["runs"] += 1
            c["correct"] += 1 if r.get("correct") else 0
            ours, theirs = r.get("best_cycles") or 0, peer.get(r["task"])
            if r.get("correct") and ours > 0 and theirs:
                c["both"] += 1
                c["fast1"] += 1 if ours <= theirs else 0
                c["logs"].append(math.log(theirs / ours))
    print("| category | runs | correct rate | both verify | fast_1 vs peer | geomean peer / ours |")
    print("|---|---:|---:|---:|---:|---:|")
    for key in sorted(k for k in cats if k != "all") + ["all"]:
        c = cats[key]
        fast = "%.2f" % (c["fast1"] / c["both"]) if c["both"] else "—"
        geo = "%.2f" % math.exp(sum(c["logs"]) / len(c["logs"])) if c["logs"] else "—"
        print("| %s | %d | %.2f | %d | %s | %s |" % ("**all**" if key == "all" else key, c["runs"],
                                                   c["correct"] / c["runs"], c["both"], fast, geo))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Tables of docs/kernelbench.md, "The tasks": every task with its category, split, KernelBench shape
and whether it has a compute spec; then the tasks without one and why.
Usage: scripts/kernelbench/tasks_doc.py [TASKS_DIR]"""
import collections
import glob
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "resources", "kernelbench", "level1")
    tasks = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(folder, "*", "task.json")))]
    tasks.sort(key=lambda t: t["kernelbench"]["id"])
    per = collections.defaultdict(lambda: [0, 0, 0])
    for t in tasks:
        c = per[t["category"]]
        c[0 if t["split"] == "train" else 1] += 1
        c[2] += 1 if "compute" in t else 0
    print("| category | train | test | with compute spec |")
    print("|---|---:|---:|---:|")
    for cat in sorted(per):
        print("| %s | %d | %d | %d |" % (cat, *per[cat]))
    total = [sum(v[i] for v in per.values()) for i in range(3)]
    print("| **all** | %d | %d | %d |" % tuple(total))
    print()
    print("| # | task | category | split | KernelBench shape | perf case | compute spec |")
    print("|---:|---|---|---|---|---|---|")
    for t in tasks:
        perf = next(c["dims"] for c in t["cases"] if c.get("perf"))
        dims = lambda d: " ".join("%s=%s" % kv for kv in d.items())  # noqa: E731
        print("| %d | %s | %s | %s | %s | %s | %s |" % (t["kernelbench"]["id"], t["name"], t["category"], t["split"],
                                                      dims(t["kernelbench_dims"]), dims(perf),
                                                      t["compute"]["kind"] if "compute" in t else "no (below)"))
    print()
    print("Tasks the compute spec cannot express yet (each loads and evaluates with its reference):")
    print()
    print("| task | why not |")
    print("|---|---|")
    for t in tasks:
        if "compute_gap" in t:
            print("| %s | %s |" % (t["name"], t["compute_gap"]))


if __name__ == "__main__":
    main()

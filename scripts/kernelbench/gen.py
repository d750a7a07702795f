#!/usr/bin/env python3
"""Writes resources/kernelbench/level1/<NN>_<name>/ (task.json + reference.cpp) for the 100
KernelBench level-1 tasks, in our task format and our own words (docs/kernelbench.md).

Facts carried over from KernelBench: the operation, the tensor shapes (kept as
"kernelbench_dims") and dtypes. Our cases: small, tail (awkward sizes) and perf (scaled so that one
evaluation takes seconds). Split: within each category, tasks in KernelBench order; the first three
of every five are train, the other two test (deterministic, about 60/40 per category).

Usage: scripts/kernelbench/gen.py OUT_DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tasks_activations  # noqa: E402
import tasks_attention  # noqa: E402
import tasks_convolutions  # noqa: E402
import tasks_losses  # noqa: E402
import tasks_matmuls  # noqa: E402
import tasks_normalisations  # noqa: E402
import tasks_pooling  # noqa: E402
import tasks_reductions  # noqa: E402
import tasks_scans  # noqa: E402

# One module per task family (scripts/kernelbench/tasks_<family>.py); none imports another.
FAMILIES = (tasks_matmuls, tasks_activations, tasks_normalisations, tasks_pooling, tasks_reductions,
            tasks_convolutions, tasks_scans, tasks_losses, tasks_attention)
TASKS = [t for family in FAMILIES for t in family.TASKS]


def split_for(tasks):
    seen = {}
    out = {}
    for t in sorted(tasks, key=lambda t: t["nn"]):
        i = seen.get(t["category"], 0)
        seen[t["category"]] = i + 1
        out[t["nn"]] = "train" if i % 5 < 3 else "test"
    return out


def task_json(t, split):
    j = {
        "name": "kb%02d_%s" % (t["nn"], t["slug"]),
        "category": t["category"],
        "split": split,
        "description": t["desc"],
        "inputs": [{"name": n, "dtype": d, "shape": s} for n, d, s in t["inputs"]],
        "outputs": [{"name": n, "dtype": d, "shape": s} for n, d, s in t["outputs"]],
    }
    if t.get("attrs"):
        j["attrs"] = t["attrs"]
    cases = [{"name": "small", "dims": t["small"]}, {"name": "tail", "dims": t["tail"]},
             {"name": "perf", "dims": t["perf"], "perf": True}]
    j["cases"] = cases
    j["kernelbench"] = {"level": 1, "id": t["nn"], "source": t["source"]}
    j["kernelbench_dims"] = t["kb"]
    if t.get("init"):
        j["init"] = t["init"]
    if t.get("tolerance"):
        j["tolerance"] = {"atol": t["tolerance"], "rtol": t["tolerance"]}
    if t.get("compute"):
        j["compute"] = t["compute"]
    else:
        j["compute_gap"] = t["gap"]
    return j


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUT_DIR   (e.g. resources/kernelbench/level1)")
    out = sys.argv[1]
    if len(TASKS) != 100 or sorted(t["nn"] for t in TASKS) != list(range(1, 101)):
        sys.exit("the tasks_<family>.py modules must hold KernelBench level-1 tasks 1..100 exactly once")
    splits = split_for(TASKS)
    for t in TASKS:
        folder = os.path.join(out, "%02d_%s" % (t["nn"], t["slug"]))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "task.json"), "w") as f:
            json.dump(task_json(t, splits[t["nn"]]), f, indent=2)
            f.write("\n")
        with open(os.path.join(folder, "reference.cpp"), "w") as f:
            f.write(t["ref"])
    print("wrote %d tasks under %s" % (len(TASKS), out))


if __name__ == "__main__":
    main()

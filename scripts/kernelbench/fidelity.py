#!/usr/bin/env python3
"""Simulated against measured time for EvoKernel's 910B kernels (docs/kernelbench.md, "Fidelity").

For every project of a peer run (peer.py's JSON lines) that compiled and whose result.json has a
measured mean (milliseconds), the kernel runs through `sage op` at two scaled sizes (scaled_sizes:
the first dimension of "kernelbench_dims" at n and 2n, the others at KernelBench's values when that
fits, else at the task's perf case; work in elements moved, or multiply-adds for products and
convolutions). Simulated time at KernelBench's
shape is extrapolated linearly in the work (cycles = a + b * work; two sizes, said in the table),
converted with the device clock and compared with the measured mean.

Usage: fidelity.py PROJECTS_DIR PEER.jsonl --out FIDELITY.jsonl [--sage SAGE] [--only P1,P2]
       fidelity.py --report FIDELITY.jsonl   (the tables: Spearman, median ratio, worst 10, by half)
"""
import argparse
import json
import math
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer  # noqa: E402

CLOCK_MHZ = 1850.0  # resources/devices/ascend910b1-sim.json clock_mhz
BUDGET = 1 << 21    # work units the larger scaled run should at least have
CAP = 1 << 26       # and at most (a run, simulation and reference, of seconds)


def numel(shape, dims, attrs):
    n = 1
    env = dict(attrs, **dims)
    for s in shape:
        n *= int(eval(str(s), {"__builtins__": {}}, env)) if not isinstance(s, int) else s  # noqa: S307 (our task.json)
    return n


def work(task, dims):
    """Work units of one run: multiply-adds for products/convolutions/attention, else elements moved."""
    attrs = task.get("attrs", {})
    outs = [numel(t["shape"], dims, attrs) for t in task["outputs"]]
    moved = sum(numel(t["shape"], dims, attrs) for t in task["inputs"]) + sum(outs)
    cat = task["category"]
    if cat == "convolution":
        window = math.prod(v for k, v in attrs.items() if k.startswith("k") and k[1:].isdigit())
        per_out = attrs.get("Cin", 1) / attrs.get("groups", 1) * window
        return max(moved, int(outs[0] * per_out))
    if cat == "matmul" and "K" in dims:
        return max(moved, outs[0] * dims["K"])
    if cat == "attention":
        return dims["B"] * dims["H"] * dims["S"] * dims["S"] * dims["D"] * 2
    return moved


def scaled_sizes(task, kernelbench_only=False):
    """Two dims dicts for the extrapolation: KernelBench's shape (or, when one slice of it is too big,
    the perf case's) with the first dimension at n and 2n. n is at least 96 (two waves of 48 cores,
    so that the added work lands on busy cores rather than idle ones) where KernelBench's own first
    dimension is that large, and large enough for ~BUDGET/2 units, but the larger run stays under
    CAP units."""
    kb = task["kernelbench_dims"]
    first = next(iter(kb))
    perf = next(c["dims"] for c in task["cases"] if c.get("perf"))
    base = dict(kb, **{first: 1})
    if kernelbench_only:  # a host that accepts only KernelBench's shape: the fewest rows of it
        return dict(base), dict(base, **{first: 2}), first
    if work(task, base) * 2 * min(96, kb[first]) > CAP:
        base = dict(perf, **{first: 1})
    unit = max(1, work(task, base))
    n1 = max(min(96, kb[first]), (BUDGET // 2) // unit, 1)
    if 2 * n1 * unit > CAP:
        n1 = max(1, (CAP // 2) // unit)
    return dict(base, **{first: n1}), dict(base, **{first: 2 * n1}), first


def measured_ms(project_dir):
    try:
        r = json.load(open(os.path.join(project_dir, "result.json")))
        return float(r["performance"]["mean"]) if r.get("correctness") else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def run(args):
    rows = [json.loads(line) for line in open(args.peer) if line.strip()]
    only = set(filter(None, args.only.split(",")))
    with open(args.out, "w") as out:
        for row in rows:
            # Any kernel that compiled and tiled: the scaled runs verify on their own (KernelBench's
            # shapes are aligned, so a kernel that fails only our tail case still counts here).
            refused = "their host refused the shape" in row.get("reason", "")
            if not ((row.get("compiled") and row.get("host_tiling")) or refused) or (only and row["project"] not in only):
                continue
            project = os.path.join(args.projects_dir, row["project"])
            ms = measured_ms(project)
            if ms is None:
                continue
            task_dir = os.path.join(args.tasks, row["task"])
            task = json.load(open(os.path.join(task_dir, "task.json")))
            s1, s2, first = scaled_sizes(task, kernelbench_only=refused)
            result = {"project": row["project"], "task": row["task"], "measured_ms": ms, "scaled_dim": first,
                      "sizes": [s1, s2]}
            cycles = []
            with tempfile.TemporaryDirectory(prefix="sage-fid-") as tmp:
                for name, dims in (("s1", s1), ("s2", s2)):
                    r = peer.run_case(args, project, task_dir, {"name": name, "dims": dims, "perf": True}, tmp)
                    if not r.get("run_cycles"):
                        result["error"] = "%s: %s" % (name, r["reason"])
                        break
                    if r["stage"] != "verified":  # it ran to the end: its time counts, its result is noted
                        result["unverified"] = "%s: %s" % (name, r["reason"][:160])
                    cycles.append(r["run_cycles"])
                    result["bottleneck"] = r.get("bottleneck")
            if len(cycles) == 2:
                w1, w2, wk = work(task, s1), work(task, s2), work(task, task["kernelbench_dims"])
                b = (cycles[1] - cycles[0]) / max(1, w2 - w1)
                a = cycles[0] - b * w1
                kb_cycles = max(cycles[1], a + b * wk)
                result.update(cycles=cycles, work=[w1, w2, wk], kb_cycles=kb_cycles,
                              sim_ms=kb_cycles / (CLOCK_MHZ * 1e3))
                result["ratio"] = result["sim_ms"] / ms
            out.write(json.dumps(result) + "\n")
            out.flush()
            print("%-45s %s" % (row["project"], "ratio %.3f" % result["ratio"] if "ratio" in result
                                else result.get("error", "")), flush=True)


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(xs, ys):
    if len(xs) < 3:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (sx * sy) if sx and sy else float("nan")


def read_rows(path):
    """The JSON lines of a fidelity run; a line that does not parse (a run cut short) is skipped."""
    rows = {}
    for line in open(path, errors="replace"):
        line = line.strip().strip("\0")
        try:
            r = json.loads(line) if line else None
        except ValueError:
            r = None
        if isinstance(r, dict) and "project" in r:
            rows[r["project"]] = r  # the last row of a project counts (a file may be appended to)
    return list(rows.values())


def moved_bytes(task, dims):
    attrs = task.get("attrs", {})
    return 4 * sum(numel(t["shape"], dims, attrs) for t in task["inputs"] + task["outputs"])


def untimed(r):
    """The simulated time is below what moving the run's tensors once through the chip's GM bandwidth
    takes (at the datasheet's 973 B/cycle), or does not grow with twice the work: the kernel moves
    its data through raw __gm__ pointers, which the simulator executes but cannot time. Left out."""
    task = json.load(open(os.path.join(peer.ROOT, "resources", "kernelbench", "level1", r["task"], "task.json")))
    below = r["cycles"][1] < moved_bytes(task, r["sizes"][1]) / 973.0
    return below or r["cycles"][1] <= r["cycles"][0] * 1.05


def report(path):
    rows = read_rows(path)
    ok = [r for r in rows if "ratio" in r and not untimed(r)]
    print("| half | kernels | Spearman (simulated vs measured) | median simulated / measured |")
    print("|---|---:|---:|---:|")
    for name, pred in (("A–L (calibration)", lambda p: p[0].upper() <= "L"),
                       ("M–Z (held out)", lambda p: p[0].upper() > "L"), ("all", lambda p: True)):
        part = [r for r in ok if pred(r["project"])]
        if not part:
            continue
        rho = spearman([r["sim_ms"] for r in part], [r["measured_ms"] for r in part])
        med = statistics.median(r["ratio"] for r in part)
        print("| %s | %d | %.3f | %.3f |" % (name, len(part), rho, med))
    print()
    print("| project | task | measured ms | simulated ms | ratio | bottleneck | scaled runs |")
    print("|---|---|---:|---:|---:|---|---|")
    for r in sorted(ok, key=lambda r: -abs(math.log(r["ratio"]))):
        print("| %s | %s | %.3f | %.3f | %.3f | %s | %s = %s, %s%s |" % (
            r["project"], r["task"], r["measured_ms"], r["sim_ms"], r["ratio"], r.get("bottleneck"),
            r["scaled_dim"], r["sizes"][0][r["scaled_dim"]], r["sizes"][1][r["scaled_dim"]],
            " (result differs from our reference)" if r.get("unverified") else ""))
    print()
    for r in rows:
        if "ratio" in r and untimed(r):
            print("- %s: untimed (%s and %s cycles at the two sizes, below the bandwidth bound or not growing: GM "
                  "through raw pointers); ratio %.5f left out" % (r["project"], "{:,}".format(r["cycles"][0]),
                                                                 "{:,}".format(r["cycles"][1]), r["ratio"]))
        elif "ratio" not in r:
            print("- %s: not measured here: %s" % (r["project"], r.get("error", "?")[:200]))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        return report(sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("projects_dir")
    ap.add_argument("peer")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sage", default=os.path.join(peer.ROOT, "build", "bin", "sage"))
    ap.add_argument("--tasks", default=os.path.join(peer.ROOT, "resources", "kernelbench", "level1"))
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=600)
    run(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""CANN's own kernels, simulated at CANN Bench's cases, side by side with their measured times.

    scripts/cann-bench-kernels-sim.py CANN_BENCH/tasks OPS_NN_CHECKOUT --out RESULTS.json
        [--sage build/bin/sage] [--specs resources/op-specs] [--device ascend910b2-sim]
        [--profile-json PROFILE.json] [--only rms_norm,...]
    scripts/cann-bench-kernels-sim.py --report RESULTS.json [--report BEFORE.json] [--agent BENCH.json ...]

CANN Bench times CANN's production kernels on a real 910B2 (metadata/910b2.json; a case counts when
its baseline was measured, not the stand-in max(10 x t_hw_us, 10)). For each operator below whose
910B kernel is an ops-nn op project that `sage op` runs and verifies, every measured case becomes a
case of a temporary copy of the op's spec (one spec per dtype configuration), and `sage op --json`
gives its simulated time. --profile-json runs against another version of the device profile (for a
"before" figure): a temporary resources folder holds it under the device's id.

--report prints, per half (operators A–L calibrate, M–Z are held out; fixed before the first run)
and per size class of the inputs (< 64 KiB, < 16 MiB, larger): Spearman rank correlation of
simulated and measured time, the median simulated/measured ratio, the share within 2x, and the 10
cases furthest from 1. With --agent (reports of `sage bench --out` on the same device), it prints
for each operator the agent's mean HAP in both terms: against CANN's measured time (what CANN
Bench scores) and against CANN's kernel simulated here, so the part of the gap that is the
simulator shows.
"""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from cann_bench_common import input_bytes, measured_cases, prod, spearman

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# CANN Bench operator -> (level, ops-nn project, spec folder under --specs, mapper). A mapper reads a
# case's input shapes, dtypes and attributes and gives (spec configuration, spec dims, attributes),
# or None for a case the spec does not cover (counted as skipped).
def rows_by_last(x, last):
    return {"R": prod(x[: len(x) - len(last)]), "D": prod(last)}


def map_rms_norm(case):
    return case["dtype"][0], rows_by_last(case["input_shape"][0], case["input_shape"][1]), \
        {"epsilon": case.get("attrs", {}).get("epsilon", 1e-6)}


def map_add_rms_norm_dynamic_quant(case):
    shapes = case["input_shape"]
    if len(shapes) != 3:
        return None  # smooth scales or beta: not in the spec
    return case["dtype"][0], rows_by_last(shapes[0], shapes[2]), {"epsilon": case.get("attrs", {}).get("epsilon", 1e-6)}


def map_dynamic_quant(case):
    x = case["input_shape"][0]
    if len(case["input_shape"]) != 1:
        return None  # smooth scales: not in the spec
    return case["dtype"][0], {"R": prod(x[:-1]), "D": x[-1]}, {}


def map_group_norm(case):
    x = case["input_shape"][0]
    a = case.get("attrs", {})
    g = int(a.get("num_groups", 1))
    return case["dtype"][0], {"N": x[0], "C": x[1], "L": prod(x[2:]), "G": g}, \
        {"num_groups": g, "eps": a.get("epsilon", 1e-5), "activate_silu": 0}


def map_dequant_swiglu_quant(case):
    shapes = [s for s in case["input_shape"] if s is not None]
    if len(shapes) != 1 or case["dtype"][0] not in ("float16", "bfloat16"):
        return None  # int32 input (dequantisation) or a quant scale: not in the spec
    x = shapes[0]
    return case["dtype"][0], {"R": prod(x[:-1]), "H2": x[-1], "H": x[-1] // 2}, \
        {"activate_left": 1 if case.get("attrs", {}).get("activate_left") else 0}


def map_swi_glu(case):
    x = case["input_shape"][0]
    dim = case.get("attrs", {}).get("dim", -1) % len(x)
    return case["dtype"][0], {"A": prod(x[:dim]), "H2": x[dim], "H": x[dim] // 2, "B": prod(x[dim + 1:])}, {}


def map_foreach_addcdiv_scalar(case):
    lists = case["input_shape"][:3]
    members = [tuple(m) for lst in lists for m in lst]
    if any(len(lst) != 2 for lst in lists) or len(set(members)) != 1:
        return None  # the spec has lists of two members of one shape
    x = members[0]
    return case["dtype"][0], {"R": prod(x[:-1]), "C": x[-1], "K": 2}, {}


OPERATORS = {
    "add_rms_norm_dynamic_quant": ("level3", "norm/add_rms_norm_dynamic_quant", "norm/add_rms_norm_dynamic_quant",
                                   map_add_rms_norm_dynamic_quant),
    "dequant_swiglu_quant": ("level3", "quant/dequant_swiglu_quant", "quant/dequant_swiglu_quant",
                             map_dequant_swiglu_quant),
    "dynamic_quant": ("level2", "quant/dynamic_quant", "quant/dynamic_quant", map_dynamic_quant),
    "foreach_addcdiv_scalar": ("level1", "foreach/foreach_addcdiv_scalar", "foreach/foreach_addcdiv_scalar",
                               map_foreach_addcdiv_scalar),
    "group_norm": ("level2", "norm/group_norm_silu", "norm/group_norm_silu", map_group_norm),
    "rms_norm": ("level2", "norm/rms_norm", "norm/rms_norm", map_rms_norm),
    "swi_glu": ("level1", "activation/swi_glu", "activation/swi_glu", map_swi_glu),
}


def half_of(op):
    return "A–L" if op[0].lower() <= "l" else "M–Z"


def size_class(nbytes):
    return "< 64 KiB" if nbytes < 64 * 1024 else "< 16 MiB" if nbytes < 16 * 2**20 else "≥ 16 MiB"


def resources_with_profile(profile_json, device, tmp):
    """A copy of resources/ whose devices/<device>.json is the given profile (others linked)."""
    res = os.path.join(tmp, "resources")
    os.makedirs(os.path.join(res, "devices"))
    src = os.path.join(ROOT, "resources")
    for name in os.listdir(src):
        if name != "devices":
            os.symlink(os.path.join(src, name), os.path.join(res, name))
    for name in os.listdir(os.path.join(src, "devices")):
        os.symlink(os.path.join(src, "devices", name), os.path.join(res, "devices", name))
    os.unlink(os.path.join(res, "devices", device + ".json"))
    shutil.copy(profile_json, os.path.join(res, "devices", device + ".json"))
    return res


def run_operator(a, op, env):
    level, project, spec_rel, mapper = OPERATORS[op]
    spec_dir = os.path.join(a.specs, spec_rel)
    task = json.load(open(os.path.join(spec_dir, "task.json")))
    groups, skipped = {}, []
    for case, measured_us in measured_cases(a.tasks, level, op):
        mapped = mapper(case)
        if mapped is None:
            skipped.append(case["case_id"])
            continue
        config, dims, attrs = mapped
        groups.setdefault((config, json.dumps(attrs, sort_keys=True)), []).append((case, measured_us, dims))
    if skipped:
        print(f"{op}: cases {skipped} are outside the spec and skipped", file=sys.stderr)
    rows = []
    for (config, attrs_text), cases in sorted(groups.items()):
        attrs = json.loads(attrs_text)
        with tempfile.TemporaryDirectory(prefix="sage-cannk-") as tmp:
            t = dict(task)
            t["configs"] = [dict(c, attrs={**c.get("attrs", {}), **attrs}) for c in task["configs"] if c["name"] == config]
            if not t["configs"]:
                print(f"{op}: the spec has no configuration '{config}'; its cases are skipped", file=sys.stderr)
                continue
            t["attrs"] = {**task.get("attrs", {}), **attrs}
            t["cases"] = [{"name": f"case{c['case_id']}", "dims": dims, **({"perf": True} if i == 0 else {})}
                          for i, (c, _, dims) in enumerate(cases)]
            spec = os.path.join(tmp, "spec")
            os.makedirs(spec)
            shutil.copy(os.path.join(spec_dir, "reference.cpp"), spec)
            json.dump(t, open(os.path.join(spec, "task.json"), "w"), indent=1)
            cmd = [a.sage, "op", os.path.join(a.ops_nn, project), "--spec", spec, "--device", a.device,
                   "--seeds", "1", "--timeout", "600", "--json"]
            p = subprocess.run(cmd, capture_output=True, text=True, env=env)
            try:
                report = json.loads(p.stdout)
            except json.JSONDecodeError:
                print(f"{op} {config}: sage op gave no report: {p.stderr.strip()[-400:]}", file=sys.stderr)
                continue
            configs = report.get("configs") or [{}]
            ev = configs[0].get("evaluation", {})
            times = {r.get("case"): r.get("device_us") for r in ev.get("run", {}).get("runs", [])}
            verified = {c.get("case"): c.get("pass") for c in ev.get("verify", {}).get("cases", [])}
            for case, measured_us, dims in cases:
                name = f"case{case['case_id']}"
                rows.append({"operator": op, "case": case["case_id"], "config": config, "dims": dims,
                             "attrs": attrs, "input_bytes": input_bytes(case), "measured_us": measured_us,
                             "simulated_us": times.get(name), "verified": verified.get(name),
                             "error": report.get("error", "") if times.get(name) is None else ""})
        print(f"{op} {config}: {len(cases)} cases", file=sys.stderr)
    return rows


def figures(rows):
    sim, meas = [r["simulated_us"] for r in rows], [r["measured_us"] for r in rows]
    ratios = [s / m for s, m in zip(sim, meas)]
    return (len(rows), spearman(sim, meas), statistics.median(ratios),
            sum(0.5 <= x <= 2 for x in ratios) / len(ratios))


def hap(candidate_us, baseline_us, hw_us):
    """CANN Bench's HAP (docs/cann-bench.md); None where it is undefined."""
    den = (candidate_us - hw_us) + (baseline_us - hw_us)
    return (baseline_us - hw_us) / den if candidate_us > 0 and hw_us > 0 and den > 0 else None


def agent_cases(bench_paths):
    """(operator, case id) -> the agent's case record (device_us, hw_us, hap, accurate)."""
    out = {}
    for path in bench_paths or []:
        for task in json.load(open(path)).get("tasks", []):
            cann = task.get("cann") or {}
            for c in cann.get("cases", []):
                case_id = int(str(c["case"]).removeprefix("case"))
                out[(task.get("task"), case_id)] = c
    return out


def agent_table(rows, bench_paths):
    agent = agent_cases(bench_paths)
    print("\n| operator | half | cases | agent's HAP vs CANN measured | agent's HAP vs CANN simulated |")
    print("|---|---|---:|---:|---:|")
    for op in sorted({r["operator"] for r in rows}):
        measured, simulated = [], []
        for r in rows:
            c = agent.get((op, r["case"])) if r["operator"] == op else None
            if not c or not c.get("accurate") or not c.get("device_us"):
                continue
            a, b = hap(c["device_us"], r["measured_us"], c["hw_us"]), hap(c["device_us"], r["simulated_us"], c["hw_us"])
            if a is not None and b is not None:
                measured.append(a)
                simulated.append(b)
        if measured:
            print(f"| {op} | {half_of(op)} | {len(measured)} | {statistics.mean(measured):.3f} | "
                  f"{statistics.mean(simulated):.3f} |")


def report(paths, bench_paths=None):
    for path in paths:
        every = json.load(open(path))["rows"]
        rows = [r for r in every if r.get("simulated_us") and r.get("verified")]
        print(f"\n{path}: {len(rows)} cases simulated and verified (of {len(every)}; a kernel whose result "
              f"differs from the reference is not counted)")
        print("| half | size class | cases | Spearman | median sim / measured | within 2× |")
        print("|---|---|---:|---:|---:|---:|")
        for half in ("A–L", "M–Z"):
            part = [r for r in rows if half_of(r["operator"]) == half]
            for cls in ("< 64 KiB", "< 16 MiB", "≥ 16 MiB", "all"):
                sel = [r for r in part if cls == "all" or size_class(r["input_bytes"]) == cls]
                if sel:
                    n, rho, med, w2 = figures(sel)
                    print(f"| {half} | {cls} | {n} | {rho:.3f} | {med:.3f} | {w2:.0%} |")
        worst = sorted(rows, key=lambda r: -abs(math.log(r["simulated_us"] / r["measured_us"])))[:10]
        print("\n| operator | case | config | input MiB | measured µs | simulated µs | ratio |")
        print("|---|---:|---|---:|---:|---:|---:|")
        for r in worst:
            print(f"| {r['operator']} | {r['case']} | {r['config']} | {r['input_bytes'] / 2**20:.2f} | "
                  f"{r['measured_us']:.2f} | {r['simulated_us']:.2f} | {r['simulated_us'] / r['measured_us']:.2f} |")
        if bench_paths:
            agent_table(rows, bench_paths)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="?")
    ap.add_argument("ops_nn", nargs="?")
    ap.add_argument("--out")
    ap.add_argument("--sage", default=os.path.join(ROOT, "build", "bin", "sage"))
    ap.add_argument("--specs", default=os.path.join(ROOT, "resources", "op-specs"))
    ap.add_argument("--device", default="ascend910b2-sim")
    ap.add_argument("--profile-json")
    ap.add_argument("--only")
    ap.add_argument("--report", action="append")
    ap.add_argument("--agent", action="append", help="a `sage bench --out` report to set against (with --report)")
    a = ap.parse_args()
    if a.report:
        report(a.report, a.agent)
        return
    if not (a.tasks and a.ops_nn and a.out):
        ap.error("give CANN_BENCH/tasks, OPS_NN_CHECKOUT and --out (or --report FILE)")
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="sage-cannk-res-") as tmp:
        if a.profile_json:
            env["SAGE_RESOURCES"] = resources_with_profile(a.profile_json, a.device, tmp)
        ops = a.only.split(",") if a.only else sorted(OPERATORS)
        rows = []
        for op in ops:
            if op not in OPERATORS:
                ap.error(f"--only: no mapping for '{op}' (known: {', '.join(sorted(OPERATORS))})")
            rows += run_operator(a, op, env)
    json.dump({"device": a.device, "profile_json": a.profile_json, "rows": rows}, open(a.out, "w"), indent=1)
    print(f"{len(rows)} cases written to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

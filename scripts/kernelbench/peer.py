#!/usr/bin/env python3
"""Runs EvoKernel's 910B op projects against our KernelBench level-1 tasks through `sage op`.

For every project of resources/kernelbench/peer-map.json found under PROJECTS_DIR, it writes a thin
op spec (our task.json and reference.cpp with the tensors renamed to the op's own names, matched in
order; an op input that our task has as an attribute becomes a [1] tensor holding that value) and
runs `sage op` once per case, that case marked perf so that its cycles are profiled. One JSON line
per project goes to --out; scripts/kernelbench-peer.sh turns them into the docs table.

Usage: peer.py PROJECTS_DIR --sage SAGE --out FILE [--only P1,P2] [--map FILE] [--tasks DIR]
       [--cases small,tail,perf] [--timeout S]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DTYPES = {"float": "float32", "float32": "float32", "float16": "float16", "half": "float16", "bfloat16": "bfloat16",
          "int32": "int32", "int64": "int64", "int8": "int8", "uint8": "int8", "bool": "int8"}


def op_definition(project):
    """(inputs, outputs) as [(name, dtype)] from the project's op JSON (the file next to op_host/)."""
    for path in sorted(glob.glob(os.path.join(project, "*.json"))):
        if os.path.basename(path) == "result.json":
            continue
        try:
            ops = json.load(open(path))
        except (OSError, ValueError):
            continue
        if isinstance(ops, list) and ops and "input_desc" in ops[0]:
            op = ops[0]

            def tensors(key):
                return [(d["name"], DTYPES.get((d.get("type") or ["float"])[0], "float32")) for d in op.get(key, [])]
            return tensors("input_desc"), tensors("output_desc")
    return None


def op_definition_from_host(project, sage):
    """(inputs, outputs) as the op's own host program registers them (`sage op init`)."""
    with tempfile.TemporaryDirectory(prefix="sage-peer-init-") as tmp:
        p = subprocess.run([sage, "op", "init", project, "--out", tmp, "--force"], capture_output=True, text=True)
        if p.returncode != 0:
            raise ValueError("`sage op init` could not read the op definition: %s" % p.stderr.strip()[:200])
        spec = json.load(open(os.path.join(tmp, "task.json")))
    return ([(t["name"], t["dtype"]) for t in spec["inputs"]], [(t["name"], t["dtype"]) for t in spec["outputs"]])


def rename_reference(source, names):
    def sub(m):
        return 'ctx.%s("%s")' % (m.group(1), names.get(m.group(2), m.group(2)))
    return re.sub(r'ctx\.(in|out|shape)\("(\w+)"\)', sub, source)


def task_case(task_dir, name):
    """One case of our task as the spec's only, perf case."""
    task = json.load(open(os.path.join(task_dir, "task.json")))
    c = next(c for c in task["cases"] if c["name"] == name)
    return {"name": name, "dims": c["dims"], "perf": True}


def build_spec(task_dir, definition, out_dir, cases):
    """Writes the op spec for one run into out_dir (cases: [{name, dims, perf}]); returns the renaming
    {ours: theirs}."""
    task = json.load(open(os.path.join(task_dir, "task.json")))
    their_in, their_out = definition
    if len(their_in) < len(task["inputs"]) or len(their_out) != len(task["outputs"]):
        raise ValueError("the op has %d inputs / %d outputs, the task %d / %d: no positional mapping" % (
            len(their_in), len(their_out), len(task["inputs"]), len(task["outputs"])))
    names = {}
    spec = {k: v for k, v in task.items() if k not in ("compute", "compute_gap", "launch", "kernelbench",
                                                        "kernelbench_dims")}
    spec["name"] = "peer_" + task["name"]
    spec["seeds"] = [0]
    for ours, theirs in ((spec["inputs"], their_in), (spec["outputs"], their_out)):
        for t, (name, dtype) in zip(ours, theirs):
            names[t["name"]] = name
            t["name"] = name
            if t["dtype"] in ("int32", "int64") and dtype in ("int32", "int64"):
                t["dtype"] = dtype  # index tensors: the op's own width (values are the same)
    attrs = task.get("attrs", {})
    init = {names.get(k, k): v for k, v in task.get("init", {}).items()}
    for name, dtype in their_in[len(task["inputs"]):]:
        if name not in attrs:
            raise ValueError("op input '%s' has no counterpart in the task (neither a tensor nor an attribute)" % name)
        spec["inputs"].append({"name": name, "dtype": dtype, "shape": [1]})
        init[name] = {"dist": "constant", "value": attrs[name]}
    spec["init"] = init
    spec["cases"] = cases
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "task.json"), "w") as f:
        json.dump(spec, f, indent=1)
    with open(os.path.join(out_dir, "reference.cpp"), "w") as f:
        f.write(rename_reference(open(os.path.join(task_dir, "reference.cpp")).read(), names))
    return names


def classify(report):
    """(stage reached, reason) for a `sage op --json` report: the reason names whose limit it is."""
    if not report.get("host_compiled"):
        d = next((d for d in report.get("host_diagnostics", []) if d.get("severity") == "error"), {})
        return "host", "our API gap (host): %s" % d.get("message", report.get("error", "?"))
    err = report.get("error", "")
    cfg = (report.get("configs") or [{}])[0]
    bad = [t for t in cfg.get("host_tiling", []) if not t.get("ok")]
    if bad:
        msg = bad[0].get("error", "")
        who = "their host refused the shape" if "GRAPH_FAILED" in msg else "our host shim"
        return "tiling", "%s (case %s): %s" % (who, bad[0].get("case"), msg)
    ev = cfg.get("evaluation") or {}
    comp = ev.get("compile") or {}
    if not comp.get("ok", False):
        d = next((d for d in comp.get("diagnostics", []) if d.get("severity") == "error"), {})
        return "compile", "our API gap: %s" % (d.get("message") or err or "?")
    run = ev.get("run") or {}
    if run.get("status") != "ok":
        msg = run.get("message") or "; ".join(str(e) for e in run.get("errors", [])[:1]) or err
        low = msg.lower()
        if run.get("status") == "race":
            who = "their kernel's unsynchronised pipes (a race the simulator reports; their build may order it)"
        elif any(k in low for k in ("out of bounds", "out-of-bounds", "misaligned", "unaligned")):
            who = "their kernel bug (as the simulator enforces the hardware rule)"
        elif any(k in low for k in ("capacity", "exceeds", "bytes of ub", "local memory", "too large")):
            who = "our simulator limit"
        elif run.get("status") == "timeout":
            who = "our simulator limit (timeout)"
        else:
            who = "run failed"
        return "run", "%s: %s: %s" % (who, run.get("status"), msg)
    ver = ev.get("verify") or {}
    if not ver.get("pass"):
        out = next((o for o in ver.get("outputs", []) if not o.get("pass")), {})
        reason = out.get("reason") or "?"
        who = ("their kernel: elements it never wrote (NaN where nothing was stored)" if "never wrote" in reason
               else "wrong result: their kernel or our simulator")
        return "verify", "%s, case %s: %s" % (who, out.get("case"), reason)
    return "verified", ""


def run_case(args, project, task_dir, case, tmp):
    """One case alone (case: {name, dims, perf: true}, so it is profiled): its stage, reason, cycles."""
    spec = os.path.join(tmp, case["name"])
    try:
        definition = op_definition(project) or op_definition_from_host(project, args.sage)
        build_spec(task_dir, definition, spec, [case])
    except ValueError as e:
        return {"stage": "mapping", "reason": "spec mapping: %s" % e}
    cmd = [args.sage, "op", project, "--spec", spec, "--json", "--profile", "--seeds", "1",
           "--timeout", str(args.timeout)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        report = json.loads(p.stdout)
    except ValueError:
        return {"stage": "error", "reason": "sage op exit %d: %s" % (p.returncode, p.stderr.strip()[:300])}
    stage, reason = classify(report)
    ev = ((report.get("configs") or [{}])[0]).get("evaluation") or {}
    prof = ev.get("profile") or {}
    return {"stage": stage, "reason": reason, "host_tiling": bool(report.get("host_tiling_ran")),
            "kernel_compiled": bool((ev.get("compile") or {}).get("ok")),
            "cycles": prof.get("total_cycles") if stage == "verified" else None,
            "time_us": prof.get("time_us") if stage == "verified" else None, "bottleneck": prof.get("bottleneck"),
            "run_cycles": prof.get("total_cycles") if stage in ("verified", "verify") else None}


def run_project(args, project, task_dir, cases):
    row = {"project": os.path.basename(project), "task": os.path.basename(task_dir), "cases": {}}
    with tempfile.TemporaryDirectory(prefix="sage-peer-") as tmp:
        for case in cases:
            r = run_case(args, project, task_dir, task_case(task_dir, case), tmp)
            row["cases"][case] = r
            if r["stage"] in ("mapping", "error", "host", "compile"):
                break  # the same for every case
    results = list(row["cases"].values())
    failed = [(c, r) for c, r in row["cases"].items() if r["stage"] != "verified"]
    row["compiled"] = any(r.get("kernel_compiled") for r in results)
    row["host_tiling"] = all(r.get("host_tiling") for r in results) and len(results) == len(cases)
    row["verified"] = not failed and len(results) == len(cases)
    row["stage"] = failed[0][1]["stage"] if failed else "verified"
    row["reason"] = failed[0][1]["reason"] if failed else ""
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("projects_dir")
    ap.add_argument("--sage", default=os.path.join(ROOT, "build", "bin", "sage"))
    ap.add_argument("--map", default=os.path.join(ROOT, "resources", "kernelbench", "peer-map.json"))
    ap.add_argument("--tasks", default=os.path.join(ROOT, "resources", "kernelbench", "level1"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--cases", default="small,tail,perf")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    mapping = json.load(open(args.map))["projects"]
    only = set(filter(None, args.only.split(",")))
    cases = args.cases.split(",")
    with open(args.out, "w") as out:
        for name, task in sorted(mapping.items(), key=lambda kv: kv[1]):
            if only and name not in only:
                continue
            project = os.path.join(args.projects_dir, name)
            task_dir = os.path.join(args.tasks, task)
            if not os.path.isdir(project):
                row = {"project": name, "task": task, "stage": "missing", "reason": "project not in " + args.projects_dir}
            else:
                row = run_project(args, project, task_dir, cases)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print("%-40s %-36s %s %s" % (name, task, row.get("stage"), row.get("reason", "")[:100]), flush=True)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
# SAGE's runner for a CANN Bench operator's own golden.py (docs/cann-bench.md).
#
# Run by the evaluator in a confined child process (no network, bounded memory and time):
#   golden_runner.py JOB.json
# JOB.json names the golden file, the function, the operator's inputs/outputs/attributes and a
# list of cases, each with its own output folder. For each case this script
#   1. draws the inputs the way CANN Bench describes its data (uniform in the case's value range,
#      computed in float64 and cast; integers uniform over [lo, hi]; bool 0/1; NaN and inf cases
#      as special-value tensors), from a torch.Generator seeded per (operator, case, seed);
#   2. applies the golden module's get_input hook when it has one (it may reorder or derive inputs);
#   3. calls the golden twice: on the inputs upcast to float64 (the oracle, as CANN Bench's
#      fp64_cpu precision does), and on the inputs as they are (the same-precision reference that
#      the small-value and cancellation rules compare against; absent when torch has no kernel of
#      that dtype on the CPU);
#   4. writes every input, the oracle cast to the output dtype, the same-precision output and a
#      manifest.json (names, dtypes, shapes, notes) into the case's folder, raw little-endian;
#      a tensor list's members, input or output, as <name>_0, <name>_1, ...
# A case that fails writes manifest.json with "error" and the traceback's last line; the others go on.
import hashlib
import importlib.util
import inspect
import json
import math
import os
import sys
import time
import traceback

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_shims  # noqa: E402  (adds what torch 1.13 lacks, only where it lacks it)

DTYPES = {
    "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
    "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "bool": torch.bool,
}
NAMES = {v: k for k, v in DTYPES.items()}


def special_floats(v):
    """The case as Python values: SAGE's loader keeps YAML's .inf/.nan as {"$float": "inf"} (JSON has none)."""
    if isinstance(v, dict):
        if set(v) == {"$float"}:
            return float(v["$float"])
        return {k: special_floats(x) for k, x in v.items()}
    if isinstance(v, list):
        return [special_floats(x) for x in v]
    return v


def case_seed(operator, case_id, seed):
    """A reproducible 31-bit seed for one (operator, case, seed): the first 8 bytes of a SHA-256."""
    digest = hashlib.sha256(f"{operator}#{case_id}#{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (2 ** 31)


def as_number(v):
    if isinstance(v, str):
        return float(v)  # "inf", "-inf", "nan"
    return v


def float_tensor(shape, dtype, lo, hi, gen):
    lo, hi = as_number(lo), as_number(hi)
    if math.isnan(lo) or math.isnan(hi) or math.isinf(lo) or math.isinf(hi):
        # Special values: a base in [-1, 1), then NaN at about half the elements (a NaN range),
        # or -inf at the first and +inf at the last 5 % (an infinite range).
        base = (torch.rand(shape, dtype=torch.float32, generator=gen) * 2 - 1).to(dtype)
        if math.isnan(lo) and math.isnan(hi):
            base[torch.rand(shape, dtype=torch.float32, generator=gen) < 0.5] = float("nan")
            return base
        flat = base.view(-1)
        n = max(1, flat.numel() // 20)
        if flat.numel():
            flat[:n] = float("-inf")
            flat[-n:] = float("inf")
        return base
    info = torch.finfo(dtype)
    lo, hi = max(float(lo), info.min), min(float(hi), info.max)
    if lo == hi:
        return torch.full(shape, lo, dtype=dtype)
    values = torch.rand(shape, dtype=torch.float64, generator=gen) * (hi - lo) + lo
    return values.clamp(info.min, info.max).to(dtype)


def make_tensor(shape, dtype_name, value_range, gen):
    dtype = DTYPES[dtype_name]
    lo, hi = (value_range if value_range is not None else ([0.0, 1.0] if dtype.is_floating_point else [0, 100]))
    if dtype.is_floating_point:
        return float_tensor(shape, dtype, lo, hi, gen)
    if dtype == torch.bool:
        lo, hi = sorted((min(1, max(0, int(lo))), min(1, max(0, int(hi)))))
        if lo == hi:
            return torch.full(shape, bool(lo), dtype=torch.bool)
        return torch.randint(lo, hi + 1, shape, generator=gen, dtype=torch.int64).to(torch.bool)
    lo, hi = int(as_number(lo)), int(as_number(hi))
    if lo == hi:
        return torch.full(shape, lo, dtype=dtype)
    return torch.randint(lo, hi + 1, shape, generator=gen, dtype=dtype)


def is_shape(s):
    return isinstance(s, list) and all(isinstance(d, int) for d in s)


def per_input(values, count, is_range=False):
    """Expands a case's dtype or value-range list to one entry per input (the last one repeats)."""
    if values is None:
        return [None] * count
    if is_range and (not values or not isinstance(values[0], list)):
        return [values] * count  # one [lo, hi] for every input
    if not isinstance(values, list):
        values = [values]
    if not values:
        return [None] * count
    return list(values) + [values[-1]] * (count - len(values))


def draw_inputs(case, inputs, gen):
    shapes = case["shapes"]
    dtypes = per_input(case.get("dtypes"), len(shapes))
    ranges = per_input(case.get("value_range"), len(shapes), is_range=True)
    drawn = []
    for i, shape in enumerate(shapes):
        if shape is None:
            drawn.append(None)
        elif is_shape(shape):
            drawn.append(make_tensor(shape, dtypes[i] or "float32", ranges[i], gen))
        else:  # a tensor list: one shape per member, a dtype and a range per member or for all
            dt, vr = dtypes[i] or "float32", ranges[i]
            drawn.append([make_tensor(s, dt if isinstance(dt, str) else dt[min(k, len(dt) - 1)],
                                      vr if vr is None or not isinstance(vr[0], list) else vr[min(k, len(vr) - 1)], gen)
                          for k, s in enumerate(shape)])
    return drawn


def call_with(fn, kwargs):
    sig = inspect.signature(fn)
    if any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
        return fn(**kwargs)
    return fn(**{k: v for k, v in kwargs.items() if k in sig.parameters})


def tensor_params(fn):
    return [n for n, p in inspect.signature(fn).parameters.items()
            if p.annotation is not inspect.Parameter.empty and "Tensor" in str(p.annotation)]


def bind(fn, names, tensors, attrs):
    """Keyword arguments for the golden: tensors by input name (else by position among its tensor
    parameters), attributes by name."""
    params = inspect.signature(fn).parameters
    kwargs = {}
    positional = [n for n in params if n not in attrs]
    for i, (name, t) in enumerate(zip(names, tensors)):
        if name in params:
            kwargs[name] = t
        elif i < len(positional):
            kwargs[positional[i]] = t
    for k, v in attrs.items():
        if k in params:
            kwargs[k] = v
    return kwargs


def upcast(t):
    if isinstance(t, list):
        return [upcast(x) for x in t]
    if isinstance(t, torch.Tensor) and t.is_floating_point():
        return t.to(torch.float64)
    return t


def named_outputs(out, names):
    """The golden's results as [(name, value)]: the proto's output names in order, a tensor-list
    output's members as name_0, name_1, ... (as tensor-list inputs are named)."""
    if isinstance(out, list) and len(names) == 1:
        out = (out,)  # one output that is a tensor list
    elif not isinstance(out, (list, tuple)):
        out = (out,)
    named = []
    for i, item in enumerate(out):
        name = names[i] if i < len(names) else f"output{i}"
        if isinstance(item, (list, tuple)):
            named.extend((f"{name}_{k}", m) for k, m in enumerate(item))
        else:
            named.append((name, item))
    return named


def raw_bytes(t):
    t = t.detach().contiguous().cpu()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().tobytes()
    if t.dtype == torch.bool:
        return t.to(torch.uint8).numpy().tobytes()
    return t.numpy().tobytes()


def write_tensor(folder, name, t):
    with open(os.path.join(folder, name + ".bin"), "wb") as f:
        f.write(raw_bytes(t))
    return {"name": name, "dtype": NAMES[t.dtype], "shape": list(t.shape)}


def run_case(job, module, golden, case):
    folder = case["out"]
    gen = torch.Generator()
    gen.manual_seed(case_seed(job["operator"], case["case_id"], case["seed"]))
    attrs = case.get("attrs") or {}
    names = list(job["inputs"])
    tensors = draw_inputs(case, job["inputs"], gen)
    hook = getattr(module, "get_input", None)
    if hook is not None:
        kwargs = dict(attrs)
        kwargs.update({n: t for n, t in zip(names, tensors)})
        kwargs.setdefault("skip2_exist", attrs.get("skip2_exist", True))
        tensors = list(call_with(hook, kwargs))
        names = tensor_params(golden) or [f"input{i}" for i in range(len(tensors))]
    manifest = {"inputs": [], "outputs": [], "notes": []}
    for name, t in zip(names, tensors):
        if t is None:
            continue
        members = t if isinstance(t, list) else [t]
        for k, m in enumerate(members):
            if isinstance(m, torch.Tensor):
                manifest["inputs"].append(write_tensor(folder, f"{name}_{k}" if isinstance(t, list) else name, m))
    oracle = getattr(module, job["function"] + "_oracle", golden)
    t0 = time.time()
    with torch.no_grad():
        gold = named_outputs(call_with(oracle, bind(oracle, names, upcast(tensors), attrs)), job["outputs"])
        try:
            native = dict(named_outputs(call_with(golden, bind(golden, names, tensors, attrs)), job["outputs"]))
        except Exception as e:  # noqa: BLE001  (no CPU kernel of this dtype in torch 1.13)
            native = None
            manifest["notes"].append("no same-precision reference: " + str(e).splitlines()[0][:200])
    manifest["golden_seconds"] = time.time() - t0
    first_float = next((m.dtype for t in tensors if t is not None
                        for m in (t if isinstance(t, list) else [t])
                        if isinstance(m, torch.Tensor) and m.is_floating_point()), torch.float32)
    for name, g in gold:
        if not isinstance(g, torch.Tensor):
            manifest["notes"].append(f"output {name} is not a tensor; not compared")
            continue
        n = native.get(name) if native is not None else None
        n = n if isinstance(n, torch.Tensor) else None
        target = n.dtype if n is not None else (first_float if g.dtype == torch.float64 else g.dtype)
        entry = write_tensor(folder, name, g.to(target))
        if n is not None:
            with open(os.path.join(folder, name + ".native.bin"), "wb") as f:
                f.write(raw_bytes(n))
        entry["native"] = n is not None
        manifest["outputs"].append(entry)
    return manifest


def main():
    with open(sys.argv[1]) as f:
        job = json.load(f)
    spec = importlib.util.spec_from_file_location("cann_golden", job["golden"])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    golden = getattr(module, job["function"], None) or getattr(module, job["function"].lower(), None)
    if golden is None:
        raise SystemExit(f"golden.py defines no function '{job['function']}' (the name in proto.yaml's schema)")
    torch.set_num_threads(int(os.environ.get("SAGE_GOLDEN_THREADS", "2")))
    for case in job["cases"]:
        case = special_floats(case)
        os.makedirs(case["out"], exist_ok=True)
        try:
            manifest = run_case(job, module, golden, case)
        except Exception as e:  # noqa: BLE001  (reported per case; the others still run)
            last = traceback.format_exc().strip().splitlines()[-1]
            manifest = {"error": f"{type(e).__name__}: {e}"[:400], "where": last[:400]}
        with open(os.path.join(case["out"], "manifest.json.part"), "w") as f:
            json.dump(manifest, f)
        os.replace(os.path.join(case["out"], "manifest.json.part"), os.path.join(case["out"], "manifest.json"))
        print(json.dumps({"case": case["case_id"], "ok": "error" not in manifest}), flush=True)


if __name__ == "__main__":
    main()

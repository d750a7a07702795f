"""What CANN Bench's scripts here share: its measured cases, shapes and a rank correlation."""
import json
import math
import os
import statistics

import yaml

DTYPE_BYTES = {"float16": 2, "bfloat16": 2, "float32": 4, "int8": 1, "int32": 4, "int64": 8, "bool": 1}


def flat_shapes(shapes):
    """A case's input shapes with tensor lists flattened into their members."""
    out = []
    for s in shapes:
        if s and isinstance(s[0], list):
            out += flat_shapes(s)
        else:
            out.append(s)
    return out


def prod(shape):
    return math.prod(shape) if shape else 1


def input_bytes(case):
    """Bytes of every input tensor of a case (a list's members each), by the case's dtypes."""
    dtypes = case["dtype"] if isinstance(case["dtype"], list) else [case["dtype"]]
    return sum(prod(s) * DTYPE_BYTES.get(dtypes[min(i, len(dtypes) - 1)], 4)
               for i, s in enumerate(flat_shapes(case["input_shape"])))


def measured_cases(tasks, level, op):
    """(case, measured µs) for each case whose 910B2 baseline was measured, not the stand-in
    max(10 x t_hw_us, 10) CANN Bench writes where it has no measurement."""
    meta = json.load(open(os.path.join(tasks, "metadata", "910b2.json")))[level][op]
    for case in yaml.safe_load(open(os.path.join(tasks, level, op, "cases.yaml")))["cases"]:
        m = meta.get(str(case["case_id"]))
        if m and abs(m["baseline_perf_us"] - max(10 * m["t_hw_us"], 10)) > 1e-6:
            yield case, m["baseline_perf_us"]


def spearman(a, b):
    """Spearman rank correlation (ties broken by order); nan for fewer than 3 values."""
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        for pos, i in enumerate(order):
            r[i] = pos
        return r
    if len(a) < 3:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return sum((x - ma) * (y - mb) for x, y in zip(ra, rb)) / den if den else float("nan")

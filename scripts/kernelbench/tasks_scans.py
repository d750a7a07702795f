# KernelBench level-1 scans as facts (operation, shapes, dtypes) in our own words; each entry as
# task_facts.py describes it. Read by gen.py.
import refs as R
from task_facts import F, SRC, UNIT, collector

TASKS = []
add = collector(TASKS)


# ---- scans along the last axis of x [B, L] -----------------------------------------------------
SCAN_CASES = dict(small={"B": 4, "L": 256}, tail={"B": 3, "L": 1001}, perf={"B": 32, "L": 32768})


def scan(nn, slug, kind, what, src, out, init=None, mask=False):
    inputs = [("x", F, ["B", "L"])] + ([("mask", "int8", ["B", "L"])] if mask else [])
    init = init or {"x": UNIT}
    if mask:
        init = dict(init, mask={"dist": "randint", "low": 0, "high": 1})
    add(nn=nn, slug=slug, category="scan", source=SRC % src,
        desc="%s along each row (the last axis, dim 1) of a float32 matrix x [B, L]; y has x's shape. KernelBench "
             "shape: B=32768, L=32768." % what,
        inputs=inputs, outputs=[("y", F, ["B", "L"])], attrs={"dim": 1}, kb={"B": 32768, "L": 32768},
        init=init, tolerance=1e-3, compute={"kind": "rowwise", "out": {"y": out}}, ref=R.scan(kind), **SCAN_CASES)


scan(89, "cumsum", "inclusive", "Inclusive prefix sum, y[b][l] = x[b][0] + ... + x[b][l], x uniform in [0, 1),",
     "89_cumsum.py", "row_scan_sum(x)")
scan(90, "cumprod", "product", "Inclusive prefix product, y[b][l] = x[b][0] * ... * x[b][l], with x uniform in "
                               "[0.98, 1.02] so that the products stay representable,", "90_cumprod.py",
     "row_scan_prod(x)",
     init={"x": {"dist": "uniform", "low": 0.98, "high": 1.02}})
scan(91, "cumsum_reverse", "reverse", "Reverse prefix sum, y[b][l] = x[b][l] + ... + x[b][L-1], x uniform in "
                                      "[0, 1),", "91_cumsum_reverse.py",
     "row_scan_sum_rev(x)")
scan(92, "cumsum_exclusive", "exclusive", "Exclusive prefix sum, y[b][0] = 0, y[b][l] = x[b][0] + ... + x[b][l-1], "
                                          "x uniform in [0, 1),", "92_cumsum_exclusive.py",
     "row_scan_sum(x) - x")
scan(93, "masked_cumsum", "masked", "Masked prefix sum, y[b][l] = sum over j <= l of (mask[b][j] ? x[b][j] : 0), "
                                    "mask an int8 0/1 tensor of x's shape, x uniform in [0, 1),",
     "93_masked_cumsum.py", "row_scan_sum(x * mask)", mask=True)

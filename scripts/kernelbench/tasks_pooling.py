# KernelBench level-1 pooling tasks as facts (operation, shapes, dtypes) in our own words; each entry as
# task_facts.py describes it. Read by gen.py.
import refs as R
from task_facts import F, SRC, UNIT, collector, dims_text
from window_geometry import SPATIAL, geometry_attrs, window_out, window_spec

TASKS = []
add = collector(TASKS)


# ---- pooling over x [N, C, S...] -------------------------------------------------------------
def pool(nn, slug, kind, k, s, p, d, kb, small, tail, perf, src):
    n = len(k)
    sp = SPATIAL[n]
    add(nn=nn, slug=slug, category="pooling", source=SRC % src,
        desc="%s pooling (%dD) of a float32 tensor x [N, C, %s]: window %s, stride %s, padding %s, dilation %s; "
             "%s Output size per axis: (in + 2p - d(k-1) - 1) / s + 1, rounded down. Inputs uniform in [0, 1). "
             "KernelBench shape: %s." % ("Max" if kind == "max" else "Average", n, ", ".join(sp), k, s, p, d,
                                         "padding counts as -infinity." if kind == "max" else
                                         "the average divides by the whole window, padding included (zeros).",
                                         dims_text(kb)),
        inputs=[("x", F, ["N", "C"] + sp)],
        outputs=[("y", F, ["N", "C"] + [window_out(sym, i) for i, sym in enumerate(sp)])],
        attrs=geometry_attrs(k, s, p, d), kb=kb, small=small, tail=tail, perf=perf, init={"x": UNIT},
        tolerance=1e-4, compute=window_spec(kind + "_pool", n), ref=R.pool(n, kind))


pool(41, "max_pool_1d", "max", [8], [1], [4], [1], {"N": 64, "C": 192, "L": 65536},
     {"N": 1, "C": 4, "L": 64}, {"N": 2, "C": 3, "L": 1001}, {"N": 4, "C": 64, "L": 4096}, "41_Max_Pooling_1D.py")
pool(42, "max_pool_2d", "max", [4, 4], [1, 1], [1, 1], [1, 1], {"N": 32, "C": 64, "H": 512, "W": 512},
     {"N": 1, "C": 2, "H": 16, "W": 16}, {"N": 2, "C": 3, "H": 17, "W": 33}, {"N": 2, "C": 16, "H": 182, "W": 182},
     "42_Max_Pooling_2D.py")
pool(43, "max_pool_3d", "max", [3] * 3, [2] * 3, [1] * 3, [1] * 3, {"N": 16, "C": 32, "D": 128, "H": 128, "W": 128},
     {"N": 1, "C": 2, "D": 8, "H": 8, "W": 8}, {"N": 1, "C": 3, "D": 9, "H": 11, "W": 13},
     {"N": 2, "C": 8, "D": 80, "H": 80, "W": 80}, "43_Max_Pooling_3D.py")
pool(44, "avg_pool_1d", "avg", [8], [1], [4], [1], {"N": 64, "C": 128, "L": 65536},
     {"N": 1, "C": 4, "L": 64}, {"N": 2, "C": 3, "L": 1001}, {"N": 4, "C": 64, "L": 4096}, "44_Average_Pooling_1D.py")
pool(45, "avg_pool_2d", "avg", [11, 11], [11, 11], [0, 0], [1, 1], {"N": 16, "C": 64, "H": 2048, "W": 2048},
     {"N": 1, "C": 2, "H": 33, "W": 33}, {"N": 1, "C": 3, "H": 50, "W": 61}, {"N": 2, "C": 8, "H": 256, "W": 256},
     "45_Average_Pooling_2D.py")
pool(46, "avg_pool_3d", "avg", [3] * 3, [2] * 3, [1] * 3, [1] * 3, {"N": 16, "C": 32, "D": 128, "H": 128, "W": 256},
     {"N": 1, "C": 2, "D": 8, "H": 8, "W": 8}, {"N": 1, "C": 3, "D": 9, "H": 11, "W": 13},
     {"N": 2, "C": 8, "D": 64, "H": 64, "W": 128}, "46_Average_Pooling_3D.py")

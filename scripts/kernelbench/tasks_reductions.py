# KernelBench level-1 reductions as facts (operation, shapes, dtypes) in our own words; each entry as
# task_facts.py describes it. Read by gen.py.
import refs as R
from task_facts import F, SRC, UNIT, collector, dims_text

TASKS = []
add = collector(TASKS)


# ---- reductions of the middle axis of x [B, R, C] ----------------------------------------------
RED_CASES = dict(small={"B": 2, "R": 16, "C": 32}, tail={"B": 3, "R": 37, "C": 1001},
                 perf={"B": 16, "R": 256, "C": 255})
RED_KB = {"B": 128, "R": 4096, "C": 4095}


def reduction(nn, slug, kind, what, out_shape, dtype, src):
    add(nn=nn, slug=slug, category="reduction", source=SRC % src,
        desc="%s over the middle axis (dim 1) of a float32 tensor x [B, R, C]: one value per (b, c), y %s. "
             "Inputs uniform in [0, 1). KernelBench shape: %s." % (what, out_shape[1], dims_text(RED_KB)),
        inputs=[("x", F, ["B", "R", "C"])], outputs=[("y", dtype, out_shape[0])], attrs={"dim": 1}, kb=RED_KB,
        init={"x": UNIT}, tolerance=1e-4,
        compute={"kind": "axis", "axis": 1, "out": {"y": "row_%s(x)" % kind}},
        ref=R.middle_axis(kind), **RED_CASES)


reduction(47, "sum_reduction", "sum", "Sum", (["B", 1, "C"], "[B, 1, C] (the axis kept with size 1)"), F,
          "47_Sum_reduction_over_a_dimension.py")
reduction(48, "mean_reduction", "mean", "Mean", (["B", "C"], "[B, C]"), F, "48_Mean_reduction_over_a_dimension.py")
reduction(49, "max_reduction", "max", "Maximum", (["B", "C"], "[B, C]"), F, "49_Max_reduction_over_a_dimension.py")
reduction(51, "argmax", "argmax", "Index (int64) of the maximum, the first one on ties,", (["B", "C"], "[B, C]"),
          "int64", "51_Argmax_over_a_dimension.py")
reduction(52, "argmin", "argmin", "Index (int64) of the minimum, the first one on ties,", (["B", "C"], "[B, C]"),
          "int64", "52_Argmin_over_a_dimension.py")
reduction(53, "min_reduction", "min", "Minimum", (["B", "C"], "[B, C]"), F, "53_Min_reduction_over_a_dimension.py")

# KernelBench level-1 normalisations (row-wise over the last axis, and over [N, C, H, W]) as facts (operation, shapes,
# dtypes) in our own words; each entry as task_facts.py describes it. Read by gen.py.
import refs as R
from task_facts import F, SRC, collector

TASKS = []
add = collector(TASKS)


# ---- row-wise over the last axis of x [B, D] -------------------------------------------------
ROW_INIT = {"x": {"dist": "uniform", "low": -3, "high": 3}}


def row(nn, slug, what, spec, per_row, per_elem, kb, cases, src, attrs=None):
    add(nn=nn, slug=slug, category="normalization", source=SRC % src,
        desc="%s of a float32 matrix x [B, D], over each row (the last axis). Inputs are uniform in [-3, 3]. "
             "KernelBench shape: B=%d, D=%d." % (what, kb["B"], kb["D"]),
        inputs=[("x", F, ["B", "D"])], outputs=[("y", F, ["B", "D"])], attrs=attrs or {}, kb=kb, init=ROW_INIT,
        compute=dict(kind="rowwise", **spec), ref=R.last_axis(per_row, per_elem), **cases)


WIDE_ROWS = dict(small={"B": 16, "D": 256}, tail={"B": 7, "D": 1001}, perf={"B": 32, "D": 32768})
row(23, "softmax", "Softmax, y = exp(x - max) / sum(exp(x - max))",
    {"let": [{"name": "m", "expr": "row_max(x)"}, {"name": "e", "expr": "exp(x - m)"}], "out": {"y": "e / row_sum(e)"}},
    "", "std::exp(row[c] - mx) / sum", {"B": 4096, "D": 393216}, WIDE_ROWS, "23_Softmax.py")
row(24, "log_softmax", "LogSoftmax, y = x - max - ln(sum(exp(x - max)))",
    {"let": [{"name": "m", "expr": "row_max(x)"}], "out": {"y": "x - m - ln(row_sum(exp(x - m)))"}},
    "", "row[c] - mx - std::log(sum)", {"B": 4096, "D": 393216}, WIDE_ROWS, "24_LogSoftmax.py", attrs={"dim": 1})
row(38, "l1_norm", "L1 normalisation, y = x / mean(|x|)", {"out": {"y": "x / row_mean(abs(x))"}},
    "", "row[c] / (sumAbs / double(cols))", {"B": 32768, "D": 65535}, WIDE_ROWS, "38_L1Norm_.py")
row(39, "l2_norm", "L2 normalisation, y = x / sqrt(sum(x^2))", {"out": {"y": "x / sqrt(row_sum(x * x))"}},
    "", "row[c] / std::sqrt(sumSq)", {"B": 32768, "D": 65535}, WIDE_ROWS, "39_L2Norm_.py")

# ---- normalisations of x [N, C, H, W] ---------------------------------------------------------
NORM_CASES = dict(small={"N": 2, "C": 64, "H": 4, "W": 8}, tail={"N": 3, "C": 64, "H": 5, "W": 7},
                  perf={"N": 2, "C": 64, "H": 64, "W": 128})
NORM_INIT = {"x": {"dist": "uniform", "low": -2, "high": 2}}
X4 = [("x", F, ["N", "C", "H", "W"])]
Y4 = [("y", F, ["N", "C", "H", "W"])]


def norm(nn, slug, what, ref, gap, kb, src, attrs=None, inputs=None, init=None, spec=None):
    add(nn=nn, slug=slug, category="normalization", source=SRC % src,
        desc="%s of a float32 tensor x [N, C, H, W] (y has x's shape). Inputs are uniform in [-2, 2]. "
             "KernelBench shape: %s." % (what, ", ".join("%s=%d" % kv for kv in kb.items())),
        inputs=inputs or X4, outputs=Y4, attrs=dict({"eps": 1e-5}, **(attrs or {})), kb=kb,
        init=init or NORM_INIT, tolerance=1e-3, gap=None if spec else gap, compute=spec, ref=ref, **NORM_CASES)


def standardise(row_axes, lead_axes=0):
    """(x - mean) / sqrt(biased variance + eps) over the last row_axes axes (and the first lead_axes)."""
    spec = {"kind": "rowwise", "row_axes": row_axes,
            "let": [{"name": "m", "expr": "row_mean(x)"}, {"name": "d", "expr": "x - m"}],
            "out": {"y": "d * rsqrt(row_mean(d * d) + eps)"}}
    if lead_axes:
        spec["row_lead_axes"] = lead_axes
    return spec


norm(33, "batch_norm", "Batch normalisation in training mode: per channel c, the mean and biased variance over "
                       "N, H and W, y = (x - mean) / sqrt(var + eps), eps = 1e-5; the affine parameters at their "
                       "initial values (weight 1, bias 0) leave y unchanged and are not inputs",
     R.BATCH_NORM, "statistics per channel over N, H and W: the spec's row reductions reduce the last axis only",
     {"N": 64, "C": 64, "H": 512, "W": 512}, "33_BatchNorm.py", spec=standardise(2, lead_axes=1))
norm(34, "instance_norm", "Instance normalisation: per (n, c) plane the mean and biased variance over H and W, "
                          "y = (x - mean) / sqrt(var + eps), eps = 1e-5, no affine parameters",
     R.group_norm("C"), "statistics over the last two axes: the spec's row reductions reduce the last axis only",
     {"N": 112, "C": 64, "H": 512, "W": 512}, "34_InstanceNorm.py", spec=standardise(2))
norm(35, "group_norm", "Group normalisation with G = 8 groups of C/G consecutive channels: per (n, group) the mean "
                       "and biased variance, y = (x - mean) / sqrt(var + eps) * gamma[c] + beta[c], eps = 1e-5",
     R.group_norm('int64_t(ctx.attr("G"))', affine=True),
     "statistics over a channel group and H, W: the spec's row reductions reduce the last axis only",
     {"N": 112, "C": 64, "H": 512, "W": 512}, "35_GroupNorm_.py", attrs={"G": 8},
     inputs=X4 + [("gamma", F, ["C"]), ("beta", F, ["C"])],
     init=dict(NORM_INIT, gamma={"dist": "uniform", "low": 0.5, "high": 1.5},
               beta={"dist": "uniform", "low": -0.5, "high": 0.5}))
norm(36, "rms_norm", "RMS normalisation across channels: per (n, h, w) rms = sqrt(mean over c of x^2 + eps), "
                     "y = x / rms, eps = 1e-5",
     R.RMS_NORM, "a reduction over the channel axis (axis 1): the spec's row reductions reduce the last axis only",
     {"N": 112, "C": 64, "H": 512, "W": 512}, "36_RMSNorm_.py",
     spec={"kind": "axis", "axis": 1, "out": {"y": "x * rsqrt(row_mean(x * x) + eps)"}})
norm(37, "frobenius_norm", "Frobenius normalisation: y = x / sqrt(sum of every x^2)",
     R.FROBENIUS, "a reduction over the whole tensor broadcast back to every element: reduce_all outputs one "
                  "element only", {"N": 112, "C": 64, "H": 512, "W": 512}, "37_FrobeniusNorm_.py",
     spec={"kind": "rowwise", "row_axes": 4, "out": {"y": "x / sqrt(row_sum(x * x))"}})
norm(40, "layer_norm", "Layer normalisation over the last three axes (C, H, W) of each sample: "
                       "y = (x - mean) / sqrt(var + eps), eps = 1e-5, biased variance; the affine parameters at "
                       "their initial values (weight 1, bias 0) leave y unchanged and are not inputs",
     R.group_norm("1"), "statistics over the last three axes: the spec's row reductions reduce the last axis only",
     {"N": 16, "C": 64, "H": 256, "W": 256}, "40_LayerNorm.py", spec=standardise(3))

# The 100 KernelBench level-1 tasks as facts (operation, shapes, dtypes) in our own words.
# Each entry: nn, slug, category, desc, inputs/outputs [(name, dtype, shape)], attrs, cases
# (small, tail, perf), kb (KernelBench's own dims), init, tolerance, compute or gap, ref.
import refs as R
import refs_misc as M

F = "float32"
TASKS = []
SRC = "KernelBench level1/%s"


def add(**t):
    t.setdefault("attrs", {})
    TASKS.append(t)


# ---- elementwise activations over x [B, D] -------------------------------------------------
ACT_CASES = dict(small={"B": 16, "D": 256}, tail={"B": 7, "D": 1001}, perf={"B": 64, "D": 16384})
ACT_INIT = {"x": {"dist": "uniform", "low": -3, "high": 3}}


def act(nn, slug, what, spec, cpp, attrs=None, gap=None, kb=None, src=None):
    add(nn=nn, slug=slug, category="activation", source=SRC % src,
        desc="%s of a float32 tensor x of shape [B, D], element by element (y has x's shape). "
             "Inputs are uniform in [-3, 3]. KernelBench shape: B=%d, D=%d." % (what, (kb or {}).get("B", 4096),
                                                                               (kb or {}).get("D", 393216)),
        inputs=[("x", F, ["B", "D"])], outputs=[("y", F, ["B", "D"])], attrs=attrs or {},
        kb=kb or {"B": 4096, "D": 393216}, init=ACT_INIT,
        compute=None if gap else {"kind": "elementwise", "out": {"y": spec}}, gap=gap,
        ref=R.elementwise(cpp), **ACT_CASES)


act(19, "relu", "ReLU, y = max(x, 0)", "relu(x)", "std::max(v_x, 0.0)", src="19_ReLU.py")
act(20, "leaky_relu", "LeakyReLU, y = x >= 0 ? x : negative_slope * x (negative_slope = 0.01)",
    "leaky_relu(x, negative_slope)", "v_x >= 0 ? v_x : ctx.attr(\"negative_slope\") * v_x",
    attrs={"negative_slope": 0.01}, src="20_LeakyReLU.py")
act(21, "sigmoid", "Sigmoid, y = 1 / (1 + exp(-x))", "sigmoid(x)", "1.0 / (1.0 + std::exp(-v_x))",
    src="21_Sigmoid.py")
act(22, "tanh", "Tanh", "tanh(x)", "std::tanh(v_x)", src="22_Tanh.py")
act(25, "swish", "Swish (SiLU), y = x * sigmoid(x)", "silu(x)", "v_x / (1.0 + std::exp(-v_x))", src="25_Swish.py")
act(26, "gelu", "GELU in its exact form, y = 0.5 * x * (1 + erf(x / sqrt(2)))",
    "0.5 * x * (1 + erf(x * 0.70710678118654752))", "0.5 * v_x * (1.0 + std::erf(v_x / std::sqrt(2.0)))",
    src="26_GELU_.py")
act(27, "selu", "SELU, y = scale * (max(x, 0) + min(alpha * (exp(x) - 1), 0)) with alpha = 1.6732632423543772, "
                "scale = 1.0507009873554805",
    "1.0507009873554805 * (relu(x) + 1.6732632423543772 * (exp(min(x, 0)) - 1))",
    "1.0507009873554805 * (v_x > 0 ? v_x : 1.6732632423543772 * (std::exp(v_x) - 1.0))", src="27_SELU_.py")
act(28, "hard_sigmoid", "HardSigmoid, y = min(max(x / 6 + 1/2, 0), 1)", "min(max(x / 6 + 0.5, 0), 1)",
    "std::min(std::max(v_x / 6.0 + 0.5, 0.0), 1.0)", src="28_HardSigmoid.py")
act(29, "softplus", "Softplus, y = ln(1 + exp(x))", "softplus(x)", "std::log1p(std::exp(v_x))", src="29_Softplus.py")
act(30, "softsign", "Softsign, y = x / (1 + |x|)", "x / (1 + abs(x))", "v_x / (1.0 + std::abs(v_x))",
    src="30_Softsign.py")
act(31, "elu", "ELU, y = x > 0 ? x : alpha * (exp(x) - 1) (alpha = 1)", "relu(x) + alpha * (exp(min(x, 0)) - 1)",
    "v_x > 0 ? v_x : ctx.attr(\"alpha\") * (std::exp(v_x) - 1.0)", attrs={"alpha": 1.0}, src="31_ELU.py")
act(32, "hard_tanh", "HardTanh, y = min(max(x, -1), 1)", "min(max(x, -1), 1)", "std::min(std::max(v_x, -1.0), 1.0)",
    src="32_HardTanh.py")
act(88, "min_gpt_new_gelu", "the tanh-approximated GELU of minGPT, "
                            "y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))", "gelu(x)",
    "0.5 * v_x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v_x + 0.044715 * v_x * v_x * v_x)))",
    kb={"B": 8192, "D": 8192}, src="88_MinGPTNewGelu.py")

add(nn=5, slug="matrix_scalar_mul", category="matmul", source=SRC % "5_Matrix_scalar_multiplication.py",
    desc="Multiply a float32 matrix A [M, N] by the scalar s = 3.14: C = A * s. KernelBench shape: M=65536, "
         "N=16384.",
    inputs=[("A", F, ["M", "N"])], outputs=[("C", F, ["M", "N"])], attrs={"s": 3.14},
    small={"M": 16, "N": 256}, tail={"M": 7, "N": 1001}, perf={"M": 64, "N": 16384}, kb={"M": 65536, "N": 16384},
    init={"A": {"dist": "uniform", "low": 0, "high": 1}},
    compute={"kind": "elementwise", "out": {"C": "A * s"}}, ref=M.SCALAR_MUL)

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

import tasks_table2  # noqa: E402,F401  (pooling, reductions, convolutions, matmuls, scans, losses)

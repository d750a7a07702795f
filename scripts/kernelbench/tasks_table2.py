# KernelBench level-1 tasks, continued: pooling, reductions, convolutions, matrix products, scans,
# losses and attention (facts only; our words and references).
import math

import refs as R
import refs_misc as M
from tasks_table import SRC, F, add

UNIT = {"dist": "uniform", "low": 0, "high": 1}
SPATIAL = {1: ["L"], 2: ["H", "W"], 3: ["D", "H", "W"]}


def window_out(sym, i, transposed=False):
    if transposed:
        return "(%s - 1) * s%d - 2 * p%d + d%d * (k%d - 1) + op%d + 1" % (sym, i, i, i, i, i)
    return "(%s + 2 * p%d - d%d * (k%d - 1) - 1) / s%d + 1" % (sym, i, i, i, i)


def geometry_attrs(k, s, p, d, op=None):
    a = {}
    for i in range(len(k)):
        a["k%d" % i], a["s%d" % i], a["p%d" % i], a["d%d" % i] = k[i], s[i], p[i], d[i]
        if op is not None:
            a["op%d" % i] = op[i]
    return a


def window_spec(op, n, inp="x", weight=None, bias=None, groups=False, transposed=False):
    """The compute spec of a window task: geometry from the attrs k<i>, s<i>, p<i>, d<i> (op<i>)."""
    w = {"op": op, "input": inp}
    if weight:
        w["weight"] = weight
    if bias:
        w["bias"] = bias
    for key, sym in (("kernel", "k"), ("stride", "s"), ("padding", "p"), ("dilation", "d")):
        w[key] = ["%s%d" % (sym, i) for i in range(n)]
    if transposed:
        w["output_padding"] = ["op%d" % i for i in range(n)]
    if groups:
        w["groups"] = "groups"
    return {"kind": "window", "window": w, "out": {"y": "acc"}}


def dims_text(kb):
    return ", ".join("%s=%d" % kv for kv in kb.items())


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


# ---- convolutions ----------------------------------------------------------------------------
def conv(nn, slug, n, cin, cout, k, kb, small, tail, perf, src, s=None, p=None, d=None, op=None, groups=1,
         transposed=False, bias=False, label=None):
    s, p, d = s or [1] * n, p or [0] * n, d or [1] * n
    if transposed:
        op = op or [0] * n
    sp = SPATIAL[n]
    attrs = dict(geometry_attrs(k, s, p, d, op), Cin=cin, Cout=cout, groups=groups)
    wshape = (["Cin", "Cout / groups"] if transposed else ["Cout", "Cin / groups"]) + ["k%d" % i for i in range(n)]
    fan_in = (cin // groups) * math.prod(k) if not transposed else (cout // groups) * math.prod(k)
    bound = round(1.0 / math.sqrt(fan_in), 6)
    inputs = [("x", F, ["N", "Cin"] + sp), ("weight", F, wshape)]
    init = {"x": UNIT, "weight": {"dist": "uniform", "low": -bound, "high": bound}}
    if bias:
        inputs.append(("bias", F, ["Cout"]))
        init["bias"] = {"dist": "uniform", "low": -bound, "high": bound}
    outs = [window_out(sym, i, transposed) for i, sym in enumerate(sp)]
    kind = label or ("transposed convolution" if transposed else "convolution")
    add(nn=nn, slug=slug, category="convolution", source=SRC % src,
        desc="%dD %s of a float32 tensor x [N, Cin, %s] with weight %s: Cin=%d, Cout=%d, kernel %s, stride %s, "
             "padding %s, dilation %s%s, groups %d, %s. Output size per axis: %s. x uniform in [0, 1), weight "
             "uniform in +-1/sqrt(fan_in). KernelBench shape: %s." % (
                 n, kind, ", ".join(sp), "[Cin, Cout/groups, k...]" if transposed else "[Cout, Cin/groups, k...]",
                 cin, cout, k, s, p, d, (", output padding %s" % op) if transposed else "", groups,
                 "plus a bias [Cout]" if bias else "no bias",
                 "(in - 1)s - 2p + d(k-1) + output_padding + 1" if transposed else
                 "(in + 2p - d(k-1) - 1) / s + 1, rounded down", dims_text(kb)),
        inputs=inputs, outputs=[("y", F, ["N", "Cout"] + outs)], attrs=attrs, kb=kb, small=small, tail=tail,
        perf=perf, init=init, tolerance=1e-3,
        compute=window_spec("conv_transpose" if transposed else "conv", n, weight="weight",
                            bias="bias" if bias else None, groups=True, transposed=transposed),
        ref=R.conv(n, transposed, bias="bias" if bias else None))


def c2(h, w, n=1):
    return {"N": n, "H": h, "W": w}


def c3(d, h, w, n=1):
    return {"N": n, "D": d, "H": h, "W": w}


def c1(length, n=1):
    return {"N": n, "L": length}


conv(50, "conv2d_square_bias", 2, 3, 96, [11, 11], {"N": 256, "H": 224, "W": 224}, c2(19, 19), c2(37, 37, 2),
     c2(115, 115), "50_conv_standard_2D__square_input__square_kernel.py", s=[4, 4], p=[2, 2], bias=True)
conv(54, "conv3d_square", 3, 3, 64, [3, 3, 3], {"N": 16, "D": 64, "H": 64, "W": 64}, c3(8, 8, 8), c3(9, 11, 13, 2),
     c3(24, 24, 24), "54_conv_standard_3D__square_input__square_kernel.py")
conv(55, "conv2d_asym_input", 2, 64, 128, [3, 3], {"N": 8, "H": 512, "W": 1024}, c2(6, 6), c2(7, 11, 2), c2(26, 26),
     "55_conv_standard_2D__asymmetric_input__square_kernel.py")
conv(56, "conv2d_asym_both", 2, 64, 128, [5, 7], {"N": 8, "H": 512, "W": 256}, c2(7, 9), c2(9, 13, 2), c2(16, 22),
     "56_conv_standard_2D__asymmetric_input__asymmetric_kernel.py")
conv(57, "conv_transpose2d_square", 2, 64, 64, [3, 3], {"N": 8, "H": 1024, "W": 1024}, c2(4, 4), c2(5, 7, 2),
     c2(30, 30), "57_conv_transposed_2D__square_input__square_kernel.py", transposed=True)
conv(58, "conv_transpose3d_asym", 3, 32, 16, [3, 5, 7], {"N": 16, "D": 16, "H": 32, "W": 64}, c3(2, 3, 4),
     c3(3, 5, 7, 2), c3(4, 8, 10), "58_conv_transposed_3D__asymmetric_input__asymmetric_kernel.py", transposed=True)
conv(59, "conv3d_asym_input", 3, 3, 64, [3, 3, 1], {"N": 16, "D": 256, "H": 256, "W": 10}, c3(6, 6, 3),
     c3(7, 9, 5, 2), c3(64, 64, 10), "59_conv_standard_3D__asymmetric_input__square_kernel.py")
conv(60, "conv3d_asym_kernel", 3, 3, 64, [3, 5, 7], {"N": 16, "D": 64, "H": 64, "W": 64}, c3(5, 7, 9),
     c3(6, 8, 11, 2), c3(16, 18, 20), "60_conv_standard_3D__square_input__asymmetric_kernel.py")
conv(61, "conv_transpose3d_square", 3, 48, 48, [3, 3, 3], {"N": 8, "D": 64, "H": 64, "W": 64}, c3(2, 2, 2),
     c3(3, 4, 5, 2), c3(8, 8, 8), "61_conv_transposed_3D__square_input__square_kernel.py", transposed=True)
conv(62, "conv2d_asym_kernel", 2, 32, 64, [5, 9], {"N": 8, "H": 512, "W": 512}, c2(10, 10), c2(11, 13, 2),
     c2(24, 24), "62_conv_standard_2D__square_input__asymmetric_kernel.py")
conv(63, "conv2d_square", 2, 16, 128, [3, 3], {"N": 16, "H": 1024, "W": 1024}, c2(6, 6), c2(7, 11, 2), c2(50, 50),
     "63_conv_standard_2D__square_input__square_kernel.py")
conv(64, "conv_transpose1d", 1, 128, 128, [3], {"N": 64, "L": 65536}, c1(8), c1(37, 2), c1(1000),
     "64_conv_transposed_1D.py", transposed=True)
conv(65, "conv_transpose2d_asym_kernel", 2, 64, 64, [3, 7], {"N": 8, "H": 512, "W": 512}, c2(4, 4), c2(5, 7, 2),
     c2(20, 20), "65_conv_transposed_2D__square_input__asymmetric_kernel.py", transposed=True)
conv(66, "conv3d_asym_both", 3, 3, 64, [3, 5, 7], {"N": 8, "D": 16, "H": 128, "W": 128}, c3(4, 6, 8), c3(5, 7, 9, 2),
     c3(8, 16, 24), "66_conv_standard_3D__asymmetric_input__asymmetric_kernel.py")
conv(67, "conv1d", 1, 64, 128, [3], {"N": 32, "L": 131072}, c1(10), c1(37, 2), c1(2050), "67_conv_standard_1D.py")
conv(68, "conv_transpose3d_asym_kernel", 3, 32, 64, [3, 5, 5], {"N": 16, "D": 64, "H": 64, "W": 64}, c3(2, 2, 2),
     c3(3, 4, 5, 2), c3(3, 5, 5), "68_conv_transposed_3D__square_input__asymmetric_kernel.py", transposed=True)
conv(69, "conv_transpose2d_asym_both", 2, 64, 128, [3, 5], {"N": 64, "H": 128, "W": 256}, c2(3, 4), c2(5, 7, 2),
     c2(12, 16), "69_conv_transposed_2D__asymmetric_input__asymmetric_kernel.py", transposed=True)
conv(70, "conv_transpose3d_asym_input", 3, 48, 24, [3, 3, 3], {"N": 8, "D": 96, "H": 96, "W": 96}, c3(2, 2, 2),
     c3(3, 4, 5, 2), c3(10, 10, 10), "70_conv_transposed_3D__asymmetric_input__square_kernel.py", transposed=True)
conv(71, "conv_transpose2d_asym_input", 2, 32, 32, [3, 3], {"N": 8, "H": 512, "W": 1024}, c2(4, 4), c2(5, 7, 2),
     c2(64, 64), "71_conv_transposed_2D__asymmetric_input__square_kernel.py", transposed=True)
conv(72, "conv_transpose3d_strided_grouped", 3, 32, 32, [3, 5, 7], {"N": 8, "D": 12, "H": 24, "W": 48}, c3(2, 2, 3),
     c3(3, 3, 5, 2), c3(4, 6, 12), "72_conv_transposed_3D_asymmetric_input_asymmetric_kernel___strided_padded_grouped_.py",
     s=[2, 2, 2], p=[1, 2, 3], op=[1, 1, 1], groups=4, transposed=True)
conv(73, "conv_transpose3d_strided_grouped_square", 3, 32, 32, [3, 3, 3], {"N": 4, "D": 32, "H": 64, "W": 128},
     c3(2, 3, 4), c3(3, 5, 7, 2), c3(8, 12, 16),
     "73_conv_transposed_3D_asymmetric_input_square_kernel__strided_padded__grouped.py", s=[2] * 3, p=[1] * 3,
     groups=4, transposed=True)
conv(74, "conv_transpose1d_dilated", 1, 32, 64, [5], {"N": 32, "L": 131072}, c1(9), c1(37, 2), c1(4000),
     "74_conv_transposed_1D_dilated.py", d=[3], transposed=True)
conv(75, "conv_transpose2d_strided_grouped_dilated", 2, 32, 64, [3, 5], {"N": 16, "H": 128, "W": 256}, c2(3, 4),
     c2(5, 7, 2), c2(24, 32),
     "75_conv_transposed_2D_asymmetric_input_asymmetric_kernel_strided__grouped____padded____dilated__.py",
     s=[2, 3], p=[1, 2], d=[2, 1], groups=4, transposed=True)
conv(76, "conv1d_dilated_strided", 1, 64, 128, [3], {"N": 64, "L": 524280}, c1(20), c1(101, 2), c1(6000),
     "76_conv_standard_1D_dilated_strided__.py", s=[3], d=[4])
conv(77, "conv_transpose3d_padded_dilated_strided", 3, 32, 64, [3, 3, 3], {"N": 16, "D": 16, "H": 32, "W": 32},
     c3(2, 2, 2), c3(2, 3, 5, 2), c3(3, 5, 5),
     "77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__.py", s=[2] * 3, p=[1] * 3,
     d=[2] * 3, transposed=True)
conv(78, "conv_transpose2d_padded", 2, 32, 32, [3, 7], {"N": 8, "H": 512, "W": 1024}, c2(4, 8), c2(5, 9, 2),
     c2(40, 48), "78_conv_transposed_2D_asymmetric_input_asymmetric_kernel___padded__.py", p=[1, 3],
     transposed=True)
conv(79, "conv_transpose1d_padded_strided_dilated", 1, 32, 64, [3], {"N": 16, "L": 131072}, c1(8), c1(37, 2),
     c1(4000), "79_conv_transposed_1D_asymmetric_input_square_kernel___padded____strided____dilated__.py", s=[2],
     p=[1], d=[2], transposed=True)
conv(80, "conv2d_dilated_padded", 2, 32, 64, [5, 9], {"N": 8, "H": 512, "W": 512}, c2(8, 20), c2(9, 21, 2),
     c2(24, 36), "80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__.py", p=[2, 4], d=[2, 3])
conv(81, "conv_transpose2d_dilated_padded_strided", 2, 32, 64, [3, 3], {"N": 16, "H": 64, "W": 128}, c2(2, 3),
     c2(3, 5, 2), c2(8, 12), "81_conv_transposed_2D_asymmetric_input_square_kernel___dilated____padded____strided__.py",
     s=[5, 5], p=[1, 1], d=[2, 2], transposed=True)
conv(82, "conv_depthwise2d_square", 2, 64, 64, [3, 3], {"N": 16, "H": 512, "W": 512}, c2(6, 6), c2(7, 11, 2),
     c2(130, 130), "82_conv_depthwise_2D_square_input_square_kernel.py", groups=64, label="depthwise convolution")
conv(83, "conv_depthwise2d_asym_kernel", 2, 8, 8, [3, 1], {"N": 64, "H": 512, "W": 512}, c2(6, 6), c2(7, 9, 2),
     c2(256, 256, 2), "83_conv_depthwise_2D_square_input_asymmetric_kernel.py", groups=8,
     label="depthwise convolution")
conv(84, "conv_depthwise2d_asym_input", 2, 128, 128, [3, 3], {"N": 64, "H": 256, "W": 512}, c2(4, 6), c2(5, 9, 2),
     c2(92, 92), "84_conv_depthwise_2D_asymmetric_input_square_kernel.py", groups=128, label="depthwise convolution")
conv(85, "conv_depthwise2d_asym_both", 2, 128, 128, [3, 7], {"N": 32, "H": 128, "W": 256}, c2(5, 9), c2(6, 11, 2),
     c2(96, 96), "85_conv_depthwise_2D_asymmetric_input_asymmetric_kernel.py", groups=128,
     label="depthwise convolution")
conv(87, "conv_pointwise2d", 2, 64, 128, [1, 1], {"N": 16, "H": 1024, "W": 1024}, c2(4, 4), c2(5, 7, 2), c2(64, 64),
     "87_conv_pointwise_2D.py", label="pointwise (1x1) convolution")

add(nn=86, slug="conv_depthwise_separable2d", category="convolution",
    source=SRC % "86_conv_depthwise_separable_2D.py",
    desc="Depthwise-separable 2D convolution of a float32 tensor x [N, C, H, W], C=64: a depthwise 3x3 "
         "convolution (w_depthwise [C, 1, 3, 3], stride 1, padding 1, dilation 1, one filter per channel) followed "
         "by a pointwise one (w_pointwise [Cout, C, 1, 1], Cout=128), no biases; y [N, Cout, H, W]. x uniform in "
         "[0, 1), weights uniform in +-1/sqrt(fan_in). KernelBench shape: N=16, H=512, W=512.",
    inputs=[("x", F, ["N", "C", "H", "W"]), ("w_depthwise", F, ["C", 1, "k0", "k0"]),
            ("w_pointwise", F, ["Cout", "C", 1, 1])],
    outputs=[("y", F, ["N", "Cout", "(H + 2 * p0 - d0 * (k0 - 1) - 1) / s0 + 1",
                       "(W + 2 * p0 - d0 * (k0 - 1) - 1) / s0 + 1"])],
    attrs={"C": 64, "Cout": 128, "k0": 3, "s0": 1, "p0": 1, "d0": 1}, kb={"N": 16, "H": 512, "W": 512},
    small=c2(4, 4), tail=c2(5, 7, 2), perf=c2(64, 64),
    init={"x": UNIT, "w_depthwise": {"dist": "uniform", "low": -0.333333, "high": 0.333333},
          "w_pointwise": {"dist": "uniform", "low": -0.125, "high": 0.125}},
    tolerance=1e-3, gap="two convolutions in a row (depthwise, then pointwise): a window spec describes one",
    ref=R.DEPTHWISE_SEPARABLE)

import tasks_table3  # noqa: E402,F401

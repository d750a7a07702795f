# KernelBench level-1 convolutions as facts (operation, shapes, dtypes) in our own words; each entry as
# task_facts.py describes it. Read by gen.py.
import math

import refs as R
from task_facts import F, SRC, UNIT, collector, dims_text
from window_geometry import SPATIAL, geometry_attrs, window_out, window_spec

TASKS = []
add = collector(TASKS)


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

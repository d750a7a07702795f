# The window geometry (kernel, stride, padding, dilation, output padding per spatial axis) that the
# pooling and convolution task families share: attribute names, output sizes and the compute spec.

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

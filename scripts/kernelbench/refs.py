# C++ reference bodies for the KernelBench level-1 port (written here; see docs/kernelbench.md).
# Every function returns the body of SAGE_REFERENCE(ctx) as text. Tokens @NAME@ are replaced by
# the caller-free helpers below, so that the C++ braces need no escaping.

HEADER = '#include "sage_reference.h"\n\n#include <algorithm>\n#include <cmath>\n#include <cstdint>\n#include <vector>\n\n'


def wrap(body, helpers=""):
    return HEADER + helpers + "SAGE_REFERENCE(ctx) {\n" + body + "}\n"


def subst(text, **kv):
    for k, v in kv.items():
        text = text.replace("@" + k + "@", str(v))
    return text


def elementwise(expr, inputs=("x",), out="y"):
    """y[i] = expr over same-shape inputs; expr uses v_<name> for the element of each input."""
    body = "".join('    auto %s = ctx.in("%s");\n' % (n, n) for n in inputs)
    body += '    auto out = ctx.out("%s");\n' % out
    body += "    for (size_t i = 0; i < out.size(); ++i) {\n"
    body += "".join("        const double v_%s = %s[i];\n" % (n, n) for n in inputs)
    body += "        out[i] = " + expr + ";\n    }\n"
    return wrap(body)


# Row-wise over the last axis: rows = numel / cols; `per_row` computes helpers, `per_elem` the output.
def last_axis(per_row, per_elem, x="x", out="y"):
    body = subst('''    auto x = ctx.in("@X@");
    auto y = ctx.out("@OUT@");
    const auto shape = ctx.shape("@X@");
    const int64_t cols = shape.back();
    const int64_t rows = int64_t(x.size()) / cols;
    for (int64_t r = 0; r < rows; ++r) {
        const double* row = x.data() + r * cols;
        double mx = row[0], sum = 0, sumAbs = 0, sumSq = 0;
        for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, row[c]);
        for (int64_t c = 0; c < cols; ++c) {
            sum += std::exp(row[c] - mx);
            sumAbs += std::abs(row[c]);
            sumSq += row[c] * row[c];
        }
@PER_ROW@        for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = @PER_ELEM@;
    }
''', X=x, OUT=out, PER_ROW=per_row, PER_ELEM=per_elem)
    return wrap(body)


# Reduction of the middle axis of [B, R, C]: one value per (b, c). `kind`: sum, mean, max, min,
# argmax, argmin (the first index of the extreme, as PyTorch returns it).
def middle_axis(kind):
    pick = {"sum": "acc += v;", "mean": "acc += v;", "max": "if (v > acc) acc = v;", "min": "if (v < acc) acc = v;",
            "argmax": "if (v > acc) { acc = v; at = r; }", "argmin": "if (v < acc) { acc = v; at = r; }"}[kind]
    start = "0.0" if kind in ("sum", "mean") else "x[(b * R) * C + c]"
    result = {"sum": "acc", "mean": "acc / double(R)", "max": "acc", "min": "acc",
              "argmax": "double(at)", "argmin": "double(at)"}[kind]
    body = subst('''    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const int64_t B = ctx.dim("B"), R = ctx.dim("R"), C = ctx.dim("C");
    for (int64_t b = 0; b < B; ++b)
        for (int64_t c = 0; c < C; ++c) {
            double acc = @START@;
            int64_t at = 0;
            for (int64_t r = 0; r < R; ++r) {
                const double v = x[(b * R + r) * C + c];
                @PICK@
            }
            (void)at;
            y[b * C + c] = @RESULT@;
        }
''', START=start, PICK=pick, RESULT=result)
    return wrap(body)


# Normalisation of groups of a [N, C, S...] tensor: `groups` consecutive-channel groups per sample
# (instance norm: groups = C; group norm: G; layer norm over C*S: 1), biased variance, eps.
def group_norm(groups_expr, affine=False):
    body = subst('''    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const auto shape = ctx.shape("x");
    const int64_t N = shape[0], C = shape[1];
    const int64_t G = @GROUPS@;
    const int64_t per = int64_t(x.size()) / (N * G);  // elements of one group
    const int64_t spatial = int64_t(x.size()) / (N * C);
    const double eps = ctx.attr("eps");
@AFFINE_IN@    for (int64_t g = 0; g < N * G; ++g) {
        const double* v = x.data() + g * per;
        double mean = 0, var = 0;
        for (int64_t i = 0; i < per; ++i) mean += v[i];
        mean /= double(per);
        for (int64_t i = 0; i < per; ++i) var += (v[i] - mean) * (v[i] - mean);
        var /= double(per);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (int64_t i = 0; i < per; ++i) {
            const int64_t ch = ((g % G) * per + i) / spatial;
            (void)ch;
            y[g * per + i] = @AFFINE@;
        }
    }
''', GROUPS=groups_expr,
                 AFFINE_IN='    auto gamma = ctx.in("gamma");\n    auto beta = ctx.in("beta");\n' if affine else "",
                 AFFINE="(v[i] - mean) * inv * gamma[ch] + beta[ch]" if affine else "(v[i] - mean) * inv")
    return wrap(body)


BATCH_NORM = wrap('''    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const auto shape = ctx.shape("x");
    const int64_t N = shape[0], C = shape[1];
    const int64_t S = int64_t(x.size()) / (N * C);
    const double eps = ctx.attr("eps");
    for (int64_t c = 0; c < C; ++c) {
        double mean = 0, var = 0;
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < S; ++s) mean += x[(n * C + c) * S + s];
        mean /= double(N * S);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < S; ++s) {
                const double d = x[(n * C + c) * S + s] - mean;
                var += d * d;
            }
        var /= double(N * S);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < S; ++s) y[(n * C + c) * S + s] = (x[(n * C + c) * S + s] - mean) * inv;
    }
''')

RMS_NORM = wrap('''    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const auto shape = ctx.shape("x");
    const int64_t N = shape[0], C = shape[1];
    const int64_t S = int64_t(x.size()) / (N * C);
    const double eps = ctx.attr("eps");
    for (int64_t n = 0; n < N; ++n)
        for (int64_t s = 0; s < S; ++s) {
            double sq = 0;
            for (int64_t c = 0; c < C; ++c) sq += x[(n * C + c) * S + s] * x[(n * C + c) * S + s];
            const double rms = std::sqrt(sq / double(C) + eps);
            for (int64_t c = 0; c < C; ++c) y[(n * C + c) * S + s] = x[(n * C + c) * S + s] / rms;
        }
''')

FROBENIUS = wrap('''    auto x = ctx.in("x");
    auto y = ctx.out("y");
    double sq = 0;
    for (double v : x) sq += v * v;
    const double norm = std::sqrt(sq);
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] / norm;
''')

# Pooling over the trailing `dims` axes of [N, C, S...]; attrs k<i>, s<i>, p<i>, d<i>. Max pads with
# -inf; average divides by the whole window (padding counted, PyTorch's count_include_pad default).
POOL_HELPERS = '''namespace {
struct Geometry {
    std::vector<int64_t> in, out, k, s, p, d;
};
Geometry geometry(sage::ref::Context& ctx, int dims) {
    Geometry g;
    const auto xs = ctx.shape("x"), ys = ctx.shape("y");
    const char* names[3][4] = {{"k0", "s0", "p0", "d0"}, {"k1", "s1", "p1", "d1"}, {"k2", "s2", "p2", "d2"}};
    for (int i = 0; i < dims; ++i) {
        g.in.push_back(xs[2 + i]);
        g.out.push_back(ys[2 + i]);
        g.k.push_back(int64_t(ctx.attr(names[i][0])));
        g.s.push_back(int64_t(ctx.attr(names[i][1])));
        g.p.push_back(int64_t(ctx.attr(names[i][2])));
        g.d.push_back(int64_t(ctx.attr(names[i][3])));
    }
    return g;
}
int64_t product(const std::vector<int64_t>& v) {
    int64_t n = 1;
    for (int64_t e : v) n *= e;
    return n;
}
} // namespace

'''


def pool(dims, kind):
    body = subst('''    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const int dims = @DIMS@;
    const Geometry g = geometry(ctx, dims);
    const int64_t planes = int64_t(x.size()) / product(g.in);
    const int64_t inPlane = product(g.in), outPlane = product(g.out), window = product(g.k);
    std::vector<int64_t> o(dims), w(dims);
    for (int64_t pl = 0; pl < planes; ++pl)
        for (int64_t oi = 0; oi < outPlane; ++oi) {
            for (int64_t r = oi, i = dims - 1; i >= 0; --i) { o[i] = r % g.out[i]; r /= g.out[i]; }
            double acc = @INIT@;
            for (int64_t wi = 0; wi < window; ++wi) {
                for (int64_t r = wi, i = dims - 1; i >= 0; --i) { w[i] = r % g.k[i]; r /= g.k[i]; }
                int64_t at = 0;
                bool inside = true;
                for (int i = 0; i < dims; ++i) {
                    const int64_t pos = o[i] * g.s[i] - g.p[i] + w[i] * g.d[i];
                    if (pos < 0 || pos >= g.in[i]) inside = false;
                    at = at * g.in[i] + pos;
                }
                if (inside) { @ACC@ }
            }
            y[pl * outPlane + oi] = @RESULT@;
        }
''', DIMS=dims, INIT="-INFINITY" if kind == "max" else "0.0",
                 ACC="acc = std::max(acc, x[pl * inPlane + at]);" if kind == "max" else "acc += x[pl * inPlane + at];",
                 RESULT="acc" if kind == "max" else "acc / double(window)")
    return wrap(body, POOL_HELPERS)


# Convolution over the trailing `dims` axes: x [N, Cin, S...], w [Cout, Cin/G, K...] (transposed:
# w [Cin, Cout/G, K...]); attrs k<i> s<i> p<i> d<i> (op<i> output padding: shapes only), groups.
CONV_HELPERS = POOL_HELPERS.replace('const auto xs = ctx.shape("x"), ys = ctx.shape("y");',
                                    'const auto xs = ctx.shape("x"), ys = ctx.shape("y");\n    (void)xs;')


def conv(dims, transposed, weight="weight", bias=None):
    if not transposed:
        loop = '''            for (int64_t ci = 0; ci < cinG; ++ci)
                for (int64_t wi = 0; wi < window; ++wi) {
                    for (int64_t r = wi, i = dims - 1; i >= 0; --i) { w[i] = r % g.k[i]; r /= g.k[i]; }
                    int64_t at = 0;
                    bool inside = true;
                    for (int i = 0; i < dims; ++i) {
                        const int64_t pos = o[i] * g.s[i] - g.p[i] + w[i] * g.d[i];
                        if (pos < 0 || pos >= g.in[i]) inside = false;
                        at = at * g.in[i] + pos;
                    }
                    if (inside)
                        acc += x[(n * Cin + grp * cinG + ci) * inPlane + at] * wt[((co * cinG) + ci) * window + wi];
                }
'''
    else:
        # out[o] gathers in[i] where o = i * s - p + w * d: i = (o + p - w * d) / s when divisible.
        loop = '''            for (int64_t ci = 0; ci < cinG; ++ci)
                for (int64_t wi = 0; wi < window; ++wi) {
                    for (int64_t r = wi, i = dims - 1; i >= 0; --i) { w[i] = r % g.k[i]; r /= g.k[i]; }
                    int64_t at = 0;
                    bool inside = true;
                    for (int i = 0; i < dims; ++i) {
                        const int64_t num = o[i] + g.p[i] - w[i] * g.d[i];
                        if (num < 0 || num % g.s[i] != 0 || num / g.s[i] >= g.in[i]) inside = false;
                        at = at * g.in[i] + (num >= 0 ? num / g.s[i] : 0);
                    }
                    const int64_t cinAbs = grp * cinG + ci;
                    if (inside)
                        acc += x[(n * Cin + cinAbs) * inPlane + at] * wt[((cinAbs * coutG) + coL) * window + wi];
                }
'''
    loop = "".join("    " + line + "\n" for line in loop.splitlines())  # inside the output-element loop
    body = subst('''    auto x = ctx.in("x");
    auto wt = ctx.in("@W@");
    auto y = ctx.out("y");
    const int dims = @DIMS@;
    const Geometry g = geometry(ctx, dims);
    const auto xs = ctx.shape("x"), ys = ctx.shape("y");
    const int64_t N = xs[0], Cin = xs[1], Cout = ys[1], G = int64_t(ctx.attr("groups"));
    const int64_t cinG = Cin / G, coutG = Cout / G;
    const int64_t inPlane = product(g.in), outPlane = product(g.out), window = product(g.k);
@BIAS_IN@    std::vector<int64_t> o(dims), w(dims);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t co = 0; co < Cout; ++co) {
            const int64_t grp = co / coutG, coL = co % coutG;
            (void)coL;
            for (int64_t oi = 0; oi < outPlane; ++oi) {
                for (int64_t r = oi, i = dims - 1; i >= 0; --i) { o[i] = r % g.out[i]; r /= g.out[i]; }
                double acc = @BIAS@;
@LOOP@                y[(n * Cout + co) * outPlane + oi] = acc;
            }
        }
''', W=weight, DIMS=dims, LOOP=loop,
                 BIAS_IN=('    auto bias = ctx.in("%s");\n' % bias) if bias else "",
                 BIAS="bias[co]" if bias else "0.0")
    return wrap(body, CONV_HELPERS)


DEPTHWISE_SEPARABLE = wrap('''    auto x = ctx.in("x");
    auto wd = ctx.in("w_depthwise");
    auto wp = ctx.in("w_pointwise");
    auto y = ctx.out("y");
    const auto xs = ctx.shape("x"), ys = ctx.shape("y");
    const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], Cout = ys[1], OH = ys[2], OW = ys[3];
    const int64_t K = int64_t(ctx.attr("k0")), S = int64_t(ctx.attr("s0")), P = int64_t(ctx.attr("p0")),
                  D = int64_t(ctx.attr("d0"));
    std::vector<double> mid(size_t(C * OH * OW));
    for (int64_t n = 0; n < N; ++n) {
        for (int64_t c = 0; c < C; ++c)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double acc = 0;
                    for (int64_t kh = 0; kh < K; ++kh)
                        for (int64_t kw = 0; kw < K; ++kw) {
                            const int64_t ih = oh * S - P + kh * D, iw = ow * S - P + kw * D;
                            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                            acc += x[((n * C + c) * H + ih) * W + iw] * wd[(c * K + kh) * K + kw];
                        }
                    mid[size_t((c * OH + oh) * OW + ow)] = acc;
                }
        for (int64_t co = 0; co < Cout; ++co)
            for (int64_t p = 0; p < OH * OW; ++p) {
                double acc = 0;
                for (int64_t c = 0; c < C; ++c) acc += wp[co * C + c] * mid[size_t(c * OH * OW + p)];
                y[(n * Cout + co) * OH * OW + p] = acc;
            }
    }
''')

# Matrix products. `dims` declares batch, M, K, N; `a_val`, `b_val` read A (b, i, k) and B (b, k, j);
# `mask` prefixes each output (triangular results).
def matmul(dims, a_val, b_val, mask=""):
    body = subst('''    auto A = ctx.in("A");
    auto Bm = ctx.in("B");
    auto C = ctx.out("C");
    @DIMS@
    std::vector<double> row(static_cast<size_t>(N));
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < M; ++i) {
            std::fill(row.begin(), row.end(), 0.0);
            for (int64_t k = 0; k < K; ++k) {
                const double a = @A_VAL@;
                if (a == 0.0) continue;
                for (int64_t j = 0; j < N; ++j) row[size_t(j)] += a * (@B_VAL@);
            }
            for (int64_t j = 0; j < N; ++j) C[(b * M + i) * N + j] = @MASK@row[size_t(j)];
        }
''', DIMS=dims, A_VAL=a_val, B_VAL=b_val, MASK=mask)
    return wrap(body)


def scan(kind):
    # kind: inclusive, product, reverse, exclusive, masked
    step = {"inclusive": "acc += x[base + c]; y[base + c] = acc;",
            "product": "acc *= x[base + c]; y[base + c] = acc;",
            "reverse": "const int64_t cc = cols - 1 - c; acc += x[base + cc]; y[base + cc] = acc;",
            "exclusive": "y[base + c] = acc; acc += x[base + c];",
            "masked": "acc += mask[base + c] != 0 ? x[base + c] : 0.0; y[base + c] = acc;"}[kind]
    body = subst('''    auto x = ctx.in("x");
@MASK_IN@    auto y = ctx.out("y");
    const int64_t cols = ctx.shape("x").back();
    const int64_t rows = int64_t(x.size()) / cols;
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t base = r * cols;
        double acc = @INIT@;
        for (int64_t c = 0; c < cols; ++c) { @STEP@ }
    }
''', MASK_IN='    auto mask = ctx.in("mask");\n' if kind == "masked" else "", INIT="1.0" if kind == "product" else "0.0",
                 STEP=step)
    return wrap(body)

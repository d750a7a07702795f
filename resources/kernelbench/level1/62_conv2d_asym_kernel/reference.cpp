#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {
struct Geometry {
    std::vector<int64_t> in, out, k, s, p, d;
};
Geometry geometry(sage::ref::Context& ctx, int dims) {
    Geometry g;
    const auto xs = ctx.shape("x"), ys = ctx.shape("y");
    (void)xs;
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

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto wt = ctx.in("weight");
    auto y = ctx.out("y");
    const int dims = 2;
    const Geometry g = geometry(ctx, dims);
    const auto xs = ctx.shape("x"), ys = ctx.shape("y");
    const int64_t N = xs[0], Cin = xs[1], Cout = ys[1], G = int64_t(ctx.attr("groups"));
    const int64_t cinG = Cin / G, coutG = Cout / G;
    const int64_t inPlane = product(g.in), outPlane = product(g.out), window = product(g.k);
    std::vector<int64_t> o(dims), w(dims);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t co = 0; co < Cout; ++co) {
            const int64_t grp = co / coutG, coL = co % coutG;
            (void)coL;
            for (int64_t oi = 0; oi < outPlane; ++oi) {
                for (int64_t r = oi, i = dims - 1; i >= 0; --i) { o[i] = r % g.out[i]; r /= g.out[i]; }
                double acc = 0.0;
                for (int64_t ci = 0; ci < cinG; ++ci)
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
                y[(n * Cout + co) * outPlane + oi] = acc;
            }
        }
}

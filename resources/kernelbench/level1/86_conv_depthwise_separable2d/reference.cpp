#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
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
}

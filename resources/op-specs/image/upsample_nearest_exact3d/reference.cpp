#include "sage_reference.h"

#include <cmath>
#include <algorithm>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const int64_t nc = ctx.dim("N") * ctx.dim("C");
    const int64_t D = ctx.dim("D"), H = ctx.dim("H"), W = ctx.dim("W");
    const int64_t OD = ctx.dim("OD"), OH = ctx.dim("OH"), OW = ctx.dim("OW");
    auto src = [](int64_t o, int64_t in, int64_t out) {
        return std::min(in - 1, int64_t((double(o) + 0.5) * double(in) / double(out)));
    };
    for (int64_t k = 0; k < nc; ++k)
        for (int64_t d = 0; d < OD; ++d)
            for (int64_t h = 0; h < OH; ++h)
                for (int64_t w = 0; w < OW; ++w)
                    y[size_t(((k * OD + d) * OH + h) * OW + w)] =
                        x[size_t(((k * D + src(d, D, OD)) * H + src(h, H, OH)) * W + src(w, W, OW))];
}

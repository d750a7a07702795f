#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
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
}

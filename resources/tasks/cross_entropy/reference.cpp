#include "sage_reference.h"

#include <algorithm>
#include <cmath>

SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), N = ctx.dim("N");
    auto x = ctx.in("x");
    auto target = ctx.in("target");
    auto y = ctx.out("y");
    for (int64_t m = 0; m < M; ++m) {
        double mx = x[m * N];
        for (int64_t n = 1; n < N; ++n) mx = std::max(mx, x[m * N + n]);
        double s = 0;
        for (int64_t n = 0; n < N; ++n) s += std::exp(x[m * N + n] - mx);
        y[m] = std::log(s) + mx - x[m * N + int64_t(target[m])];
    }
}

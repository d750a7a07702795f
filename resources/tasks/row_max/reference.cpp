#include "sage_reference.h"

#include <algorithm>
#include <cmath>

SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), N = ctx.dim("N");
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    for (int64_t m = 0; m < M; ++m) {
        double v = x[m * N];
        for (int64_t n = 1; n < N; ++n) v = std::max(v, x[m * N + n]);
        y[m] = v;
    }
}

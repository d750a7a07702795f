#include "sage_reference.h"

#include <algorithm>
#include <cmath>

SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), N = ctx.dim("N");
    auto x = ctx.in("x");
    auto bias = ctx.in("bias");
    auto y = ctx.out("y");
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            const double v = x[m * N + n] + bias[n];
            y[m * N + n] = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
        }
}

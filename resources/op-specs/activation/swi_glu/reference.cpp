// SwiGlu in double over the [A, H2, B] view: the first half of the split axis through x * sigmoid(x),
// times the second half.
#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const int64_t outer = ctx.dim("A"), half = ctx.dim("H"), inner = ctx.dim("B");
    for (int64_t a = 0; a < outer; ++a)
        for (int64_t h = 0; h < half; ++h)
            for (int64_t b = 0; b < inner; ++b) {
                const double u = x[size_t((a * 2 * half + h) * inner + b)];
                const double v = x[size_t((a * 2 * half + half + h) * inner + b)];
                y[size_t((a * half + h) * inner + b)] = u / (1.0 + std::exp(-u)) * v;
            }
}

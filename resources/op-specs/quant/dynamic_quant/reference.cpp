// DynamicQuant per token, in double: the row's largest magnitude maps to 127; every element is
// divided by that row scale and rounded to the nearest integer, ties to even.
#include "sage_reference.h"

#include <algorithm>
#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    auto scale = ctx.out("scale");
    const int64_t rows = ctx.dim("R"), cols = ctx.dim("D");
    for (int64_t r = 0; r < rows; ++r) {
        double largest = 0;
        for (int64_t c = 0; c < cols; ++c) largest = std::max(largest, std::fabs(double(x[size_t(r * cols + c)])));
        const double s = largest / 127.0;
        scale[size_t(r)] = s;
        for (int64_t c = 0; c < cols; ++c) {
            const double q = s == 0 ? 0 : std::nearbyint(double(x[size_t(r * cols + c)]) / s);
            y[size_t(r * cols + c)] = std::clamp(q, -128.0, 127.0);
        }
    }
}

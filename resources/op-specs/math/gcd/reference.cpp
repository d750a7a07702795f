#include "sage_reference.h"

#include <cmath>
#include <numeric>

SAGE_REFERENCE(ctx) {
    auto a = ctx.in("x1");
    auto b = ctx.in("x2");
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) y[i] = double(std::gcd(int64_t(a[i]), int64_t(b[i])));
}

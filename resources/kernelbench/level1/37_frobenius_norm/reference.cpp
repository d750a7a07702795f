#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    double sq = 0;
    for (double v : x) sq += v * v;
    const double norm = std::sqrt(sq);
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] / norm;
}

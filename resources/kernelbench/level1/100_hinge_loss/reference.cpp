#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto p = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    const int64_t cols = int64_t(t.size());
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i) s += std::max(0.0, 1.0 - p[i] * t[int64_t(i) % cols]);
    y[0] = s / double(p.size());
}

#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto p = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    const int64_t rows = ctx.dim("B");
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (t[i] > 0) s += t[i] * (std::log(t[i]) - std::log(p[i]));
    y[0] = s / double(rows);
}

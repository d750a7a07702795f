#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto p = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i) s += (p[i] - t[i]) * (p[i] - t[i]);
    y[0] = s / double(p.size());
}

#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto out = ctx.out("y");
    for (size_t i = 0; i < out.size(); ++i) {
        const double v_x = x[i];
        out[i] = 1.0 / (1.0 + std::exp(-v_x));
    }
}

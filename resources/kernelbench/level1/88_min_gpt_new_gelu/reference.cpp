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
        out[i] = 0.5 * v_x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v_x + 0.044715 * v_x * v_x * v_x)));
    }
}

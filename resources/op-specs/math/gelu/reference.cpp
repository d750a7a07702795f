#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) {
        const double v = x[i];
        y[i] = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    }
}

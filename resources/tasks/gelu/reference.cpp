#include "sage_reference.h"

#include <algorithm>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto z = ctx.out("z");
    for (size_t i = 0; i < z.size(); ++i) z[i] = 0.5 * x[i] * (1.0 + std::tanh(0.7978845608028654 * (x[i] + 0.044715 * x[i] * x[i] * x[i])));
}

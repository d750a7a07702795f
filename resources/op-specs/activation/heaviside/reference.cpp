#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto input = ctx.in("input");
    auto values = ctx.in("values");
    auto out = ctx.out("output");
    for (size_t i = 0; i < out.size(); ++i) {
        const double p = input[i], q = values[i];
        out[i] = p < 0 ? 0.0 : (p > 0 ? 1.0 : q);
    }
}

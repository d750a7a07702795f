#include "sage_reference.h"

#include <algorithm>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.in("y");
    auto z = ctx.out("z");
    for (size_t i = 0; i < z.size(); ++i) z[i] = x[i] * y[i];
}

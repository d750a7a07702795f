// Test reference written for SAGE.
#include "sage_reference.h"
#include <algorithm>
SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) y[i] = std::max(x[i], 0.0);
}

#include "sage_reference.h"
SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x"), y = ctx.in("y");
    auto z = ctx.out("z");
    for (size_t i = 0; i < z.size(); ++i) z[i] = x[i] * y[i];
}

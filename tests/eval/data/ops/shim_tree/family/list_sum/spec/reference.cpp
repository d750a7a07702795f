#include "sage_reference.h"

SAGE_REFERENCE(ctx) {
    auto a = ctx.in("x_0");
    auto b = ctx.in("x_1");
    auto c = ctx.in("x_2");
    auto z = ctx.out("z");
    for (size_t i = 0; i < z.size(); ++i) z[i] = a[i] + b[i] + c[i];
}

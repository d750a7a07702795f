#include "sage_reference.h"
SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x"), mask = ctx.in("mask");
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) y[i] = mask[i] != 0 ? x[i] : 0.0;
}

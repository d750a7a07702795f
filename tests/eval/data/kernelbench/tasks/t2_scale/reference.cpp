// Test reference written for SAGE.
#include "sage_reference.h"
SAGE_REFERENCE(ctx) {
    auto a = ctx.in("A");
    auto c = ctx.out("C");
    const double s = ctx.attr("s");
    for (size_t i = 0; i < c.size(); ++i) c[i] = a[i] * s;
}

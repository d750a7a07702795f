#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto a = ctx.in("A");
    auto c = ctx.out("C");
    const double s = ctx.attr("s");
    for (size_t i = 0; i < a.size(); ++i) c[i] = a[i] * s;
}

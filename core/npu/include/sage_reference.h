// The API a task's reference.cpp is written against: plain C++ on double-precision copies of
// the (already quantised) inputs; outputs are computed in double and cast by the verifier.
//
//     #include "sage_reference.h"
//     SAGE_REFERENCE(ctx) {
//         auto x = ctx.in("x"); auto y = ctx.in("y"); auto z = ctx.out("z");
//         for (size_t i = 0; i < z.size(); ++i) z[i] = x[i] + y[i];
//     }
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sage::ref {

class Context {
public:
    virtual ~Context() = default;
    virtual std::span<const double> in(const char* name) = 0;
    virtual std::span<double> out(const char* name) = 0;
    virtual std::vector<int64_t> shape(const char* tensor) = 0;
    virtual int64_t dim(const char* symbol) = 0;
    virtual double attr(const char* name) = 0;
};

} // namespace sage::ref

#define SAGE_REFERENCE(ctx) extern "C" void sage_reference(::sage::ref::Context& ctx)

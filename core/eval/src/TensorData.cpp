#include "sage_eval/TensorData.h"

#include "kernel_types.h"
#include "sage_toolchain/Hash.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace sage::eval {
namespace {

void store(const std::string& dtype, uint8_t* p, double v) {
    if (dtype == "float16") { uint16_t b = half(float(v)).bits; std::memcpy(p, &b, 2); }
    else if (dtype == "bfloat16") { uint16_t b = bfloat16_t(float(v)).bits; std::memcpy(p, &b, 2); }
    else if (dtype == "float32") { float f = float(v); std::memcpy(p, &f, 4); }
    else if (dtype == "int32") { int32_t x = int32_t(castTo(dtype, v)); std::memcpy(p, &x, 4); }
    else if (dtype == "int8") { int8_t x = int8_t(castTo(dtype, v)); std::memcpy(p, &x, 1); }
}

double load(const std::string& dtype, const uint8_t* p) {
    if (dtype == "float16") { uint16_t b; std::memcpy(&b, p, 2); return float(half::fromBits(b)); }
    if (dtype == "bfloat16") { uint16_t b; std::memcpy(&b, p, 2); return float(bfloat16_t::fromBits(b)); }
    if (dtype == "float32") { float f; std::memcpy(&f, p, 4); return f; }
    if (dtype == "int32") { int32_t x; std::memcpy(&x, p, 4); return x; }
    if (dtype == "int8") { int8_t x; std::memcpy(&x, p, 1); return x; }
    return 0;
}

} // namespace

double castTo(const std::string& dtype, double v) {
    if (dtype == "float16") return float(half(float(v)));
    if (dtype == "bfloat16") return float(bfloat16_t(float(v)));
    if (dtype == "float32") return double(float(v));
    if (std::isnan(v)) return v;
    double lo = dtype == "int8" ? -128.0 : double(std::numeric_limits<int32_t>::min());
    double hi = dtype == "int8" ? 127.0 : double(std::numeric_limits<int32_t>::max());
    return std::clamp(std::nearbyint(v), lo, hi);
}

std::vector<uint8_t> generateInput(const Task& task, const TaskCase& c, uint64_t seed, const TensorDecl& t) {
    uint64_t n = toolchain::elementCount(task.shapeOf(t, c));
    uint32_t es = toolchain::dtypeBytes(t.dtype);
    std::vector<uint8_t> out(n * es);
    InitSpec spec;
    if (auto it = task.init.find(t.name); it != task.init.end()) spec = it->second;
    std::string key = toolchain::ContentHash().add(task.name).add(c.name).add(std::to_string(seed)).add(t.name).hex();
    std::mt19937_64 rng(std::stoull(key.substr(0, 16), nullptr, 16));
    // Our own transforms (not std distributions) so values are identical with any standard library.
    auto unit = [&] { return double(rng() >> 11) * (1.0 / 9007199254740992.0); };
    for (uint64_t i = 0; i < n; ++i) {
        double v = 0;
        if (spec.dist == "uniform") v = spec.low + (spec.high - spec.low) * unit();
        else if (spec.dist == "randint") v = std::floor(spec.low + (spec.high - spec.low + 1) * unit());
        else if (spec.dist == "constant") v = spec.value;
        else {  // normal, Box-Muller
            double u1 = std::max(unit(), 1e-300), u2 = unit();
            v = spec.low + spec.high * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
        }
        store(t.dtype, out.data() + i * es, v);
    }
    return out;
}

std::vector<double> decode(const std::string& dtype, const std::vector<uint8_t>& bytes) {
    uint32_t es = toolchain::dtypeBytes(dtype);
    std::vector<double> out(es ? bytes.size() / es : 0);
    for (size_t i = 0; i < out.size(); ++i) out[i] = load(dtype, bytes.data() + i * es);
    return out;
}

} // namespace sage::eval

#include "sage_eval/TensorData.h"

#include "sage_toolchain/TensorCodec.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <initializer_list>
#include <random>
#include <string_view>

namespace sage::eval {
namespace {

// The input seed is the first FNV-1a-64 stream of the original cache hash (fields framed by a
// 0xff byte). Kept as is when cache keys moved to XXH3, so that every task's inputs, and hence
// every recorded result, stay bit-identical.
uint64_t inputSeed(std::initializer_list<std::string_view> fields) {
    uint64_t a = 0xcbf29ce484222325ull;
    for (std::string_view f : fields) {
        for (unsigned char ch : f) a = (a ^ ch) * 0x100000001b3ull;
        a = (a ^ 0xff) * 0x100000001b3ull;
    }
    return a;
}

} // namespace

std::vector<uint8_t> generateInput(const Task& task, const TaskCase& c, uint64_t seed, const TensorDecl& t) {
    uint64_t n = toolchain::elementCount(task.shapeOf(t, c));
    std::vector<double> values(n);
    InitSpec spec;
    if (auto it = task.init.find(t.name); it != task.init.end()) spec = it->second;
    std::mt19937_64 rng(inputSeed({task.name, c.name, std::to_string(seed), t.name}));
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
        values[i] = v;
    }
    return toolchain::encodeTensor(t.dtype, values);
}

std::vector<double> decode(const std::string& dtype, const std::vector<uint8_t>& bytes) {
    return toolchain::decodeTensor(dtype, bytes);
}

} // namespace sage::eval

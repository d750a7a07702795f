#include "sage_eval/TensorData.h"

#include "sage_toolchain/TensorCodec.h"
#include "sage_toolchain/Hash.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace sage::eval {
std::vector<uint8_t> generateInput(const Task& task, const TaskCase& c, uint64_t seed, const TensorDecl& t) {
    uint64_t n = toolchain::elementCount(task.shapeOf(t, c));
    std::vector<double> values(n);
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
        values[i] = v;
    }
    return toolchain::encodeTensor(t.dtype, values);
}

std::vector<double> decode(const std::string& dtype, const std::vector<uint8_t>& bytes) {
    return toolchain::decodeTensor(dtype, bytes);
}

} // namespace sage::eval

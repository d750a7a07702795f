// Shape and tiling expressions (task shapes, launch specs, op specs): toolchain::evaluate.
#include "FuzzInput.h"
#include "sage_toolchain/Expression.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto lookup = [](const std::string& n) -> std::optional<double> {
        if (n == "N") return 4096.0;
        if (n == "cores") return 40.0;
        return std::nullopt;
    };
    try {
        sage::toolchain::evaluate(sage::fuzz::text(data, size), lookup);
    } catch (const std::exception&) {
    }
    return 0;
}

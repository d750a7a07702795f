// The compute spec's expressions (task.json "compute"): eval::parseExpression, then text().
#include "FuzzInput.h"
#include "sage_eval/ComputeSpec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const sage::eval::Expr e = sage::eval::parseExpression(sage::fuzz::text(data, size));
        (void)e.text();
    } catch (const std::exception&) {
    }
    return 0;
}

// An op project's op_host sources and kernel (`sage compat`, `sage op`): the registrations and
// tiling definitions the prelude is generated from, and the kernel's local includes.
#include "FuzzInput.h"
#include "sage_eval/CompatScan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto root = sage::fuzz::scratch() / "ops";
    const auto op = root / "fuzz_op";
    const std::string text = sage::fuzz::text(data, size);
    sage::fuzz::writeFile(op / "op_host" / "fuzz_op_tiling.h", text);
    sage::fuzz::writeFile(op / "op_host" / "fuzz_op.cpp", text);
    sage::fuzz::writeFile(op / "op_kernel" / "fuzz_op.cpp", text);
    try {
        (void)sage::eval::prepareOpKernel(root.string(), (op / "op_kernel" / "fuzz_op.cpp").string(), "/nonexistent");
    } catch (const std::exception&) {
    }
    return 0;
}

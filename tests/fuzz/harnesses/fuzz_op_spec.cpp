// An op spec folder (`sage op --spec`): its task.json-like spec through OpSpec::loadDirectory.
#include "FuzzInput.h"
#include "sage_eval/OpProject.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto dir = sage::fuzz::scratch() / "opspec";
    sage::fuzz::writeFile(dir / "task.json", sage::fuzz::text(data, size));
    try {
        (void)sage::eval::OpSpec::loadDirectory(dir.string());
    } catch (const std::exception&) {
    }
    return 0;
}

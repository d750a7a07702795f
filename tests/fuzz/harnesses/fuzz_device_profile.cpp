// A device profile from elsewhere: bounded JSON, then DeviceCatalog::fromJson.
#include "FuzzInput.h"
#include "sage_json/BoundedJson.h"
#include "sage_toolchain/DeviceCatalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        sage::toolchain::DeviceCatalog::fromJson(sage_json::parse(sage::fuzz::text(data, size), "fuzz profile"), "fuzz");
    } catch (const std::exception&) {
    }
    return 0;
}

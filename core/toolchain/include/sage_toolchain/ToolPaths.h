// Where the running tools find the kernel headers, the simulator runtime, the resources and
// the compile cache. Defaults come from the build; environment variables override each:
// SAGE_NPU_INCLUDE, SAGE_LIB_DIR, SAGE_BIN_DIR, SAGE_RESOURCES, SAGE_CACHE_DIR, SAGE_CXX.
#pragma once

#include <string>

namespace sage::toolchain {

struct ToolPaths {
    std::string npuInclude;
    std::string libDir;
    std::string binDir;
    std::string resources;
    std::string cacheDir;
    std::string compiler;

    static ToolPaths fromEnvironment();
    std::string devicesDir() const { return resources + "/devices"; }
    std::string tasksDir() const { return resources + "/tasks"; }
};

} // namespace sage::toolchain

#include "sage_toolchain/ToolPaths.h"

#include "sage_config.h"

#include <cstdlib>

namespace sage::toolchain {
namespace {
std::string env(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}
} // namespace

ToolPaths ToolPaths::fromEnvironment() {
    ToolPaths p;
    p.npuInclude = env("SAGE_NPU_INCLUDE", SAGE_DEFAULT_NPU_INCLUDE_DIR);
    p.libDir = env("SAGE_LIB_DIR", SAGE_DEFAULT_LIB_DIR);
    p.binDir = env("SAGE_BIN_DIR", SAGE_DEFAULT_BIN_DIR);
    p.resources = env("SAGE_RESOURCES", SAGE_DEFAULT_RESOURCE_DIR);
    std::string home = env("HOME", "/tmp");
    p.cacheDir = env("SAGE_CACHE_DIR", env("XDG_CACHE_HOME", home + "/.cache") + "/sage");
    p.compiler = env("SAGE_CXX", SAGE_CXX_COMPILER);
    return p;
}

} // namespace sage::toolchain

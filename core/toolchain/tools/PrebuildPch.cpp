// sage-prebuild-pch: builds the precompiled kernel_operator.h for every device architecture of the
// device catalog, and sage_reference.h for task references, into <libDir>/pch, at build time, so that the first compile of a cold evaluation
// (an empty cache) does not parse the whole kernel API (docs/performance.md, issue 15).
// Usage: sage-prebuild-pch DEVICES_DIR STAMP_FILE
#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/ToolPaths.h"

#include <fstream>
#include <iostream>
#include <set>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: sage-prebuild-pch DEVICES_DIR STAMP_FILE\n";
        return 2;
    }
    try {
        const auto paths = sage::toolchain::ToolPaths::fromEnvironment();
        const auto catalog = sage::toolchain::DeviceCatalog::loadDirectory(argv[1]);
        sage::toolchain::Compiler compiler(paths);
        std::set<int> archs;
        for (const auto& d : catalog.profiles()) archs.insert(d.npuArch);
        std::string error;
        for (int arch : archs)
            for (bool withStd : {false, true})  // plain, and with <cmath>/<cstring> for sources that include them
                if (!compiler.prebuildHeader(arch, false, withStd, &error)) {
                    std::cerr << "sage-prebuild-pch: " << error << "\n";
                    return 1;
                }
        if (!compiler.prebuildHeader(0, true, false, &error)) {  // the references' sage_reference.h
            std::cerr << "sage-prebuild-pch: " << error << "\n";
            return 1;
        }
        std::ofstream(argv[2]) << 2 * archs.size() + 1 << " precompiled headers in " << paths.libDir << "/pch\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "sage-prebuild-pch: " << e.what() << "\n";
        return 1;
    }
}

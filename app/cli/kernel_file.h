// Reading the kernel file a command was given (`--kernel FILE`): a readable regular file, or a
// clear error on stderr naming the option, the path and what is wrong, and exit code 2.
#pragma once

#include <string>

namespace sage::cli {

std::string readKernelFile(const std::string& path, const std::string& option = "--kernel");

} // namespace sage::cli

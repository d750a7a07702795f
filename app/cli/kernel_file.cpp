#include "cli/kernel_file.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace sage::cli {

std::string readKernelFile(const std::string& path, const std::string& option) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    std::string problem;
    if (ec || !std::filesystem::exists(status)) problem = "does not exist";
    else if (std::filesystem::is_directory(status)) problem = "is a directory, not a kernel source file";
    else if (!std::filesystem::is_regular_file(status)) problem = "is not a regular file";
    std::ifstream in(path, std::ios::binary);
    if (problem.empty() && !in) problem = "cannot be read (permissions?)";
    if (!problem.empty()) {
        std::cerr << "sage: error: " << option << " '" << path << "' " << problem
                  << " (give the path of one kernel .cpp file)\n";
        throw CLI::RuntimeError(2);
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace sage::cli

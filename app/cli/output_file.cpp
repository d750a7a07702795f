#include "cli/output_file.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace sage::cli {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& path, std::string_view option, const std::string& why, int code) {
    std::cerr << "sage: error: " << option << " " << path << ": " << why << "\n";
    throw CLI::RuntimeError(code);
}

fs::path temporaryBeside(const fs::path& file) {
    return file.parent_path() / ("." + file.filename().string() + ".part." + std::to_string(::getpid()));
}

} // namespace

OutputFile OutputFile::prepare(const std::string& path, std::string_view option) {
    OutputFile out(path, std::string(option));
    if (path.empty()) return out;
    const fs::path file = fs::absolute(path);
    std::error_code ec;
    if (fs::is_directory(file, ec))
        refuse(path, option,
               "is a folder; name a file in it (e.g. " + (fs::path(path) / "report.json").string() + ")", 2);
    const fs::path folder = file.parent_path();
    fs::create_directories(folder, ec);
    if (ec || !fs::is_directory(folder))
        refuse(path, option,
               "cannot create the folder " + folder.string() + " (" +
                   (ec ? ec.message() : std::string("a file of that name is in the way")) +
                   "). Nothing was run; choose a writable place.",
               2);
    // A probe in the same folder: the real file is replaced only when the work is done.
    const fs::path probe = temporaryBeside(file);
    if (!std::ofstream(probe))
        refuse(path, option,
               "cannot be written in " + folder.string() + ". Nothing was run; choose a writable place.", 2);
    fs::remove(probe, ec);
    return out;
}

void OutputFile::write(const std::string& text) const {
    if (path_.empty()) return;
    const fs::path file = fs::absolute(path_);
    const fs::path part = temporaryBeside(file);
    std::error_code ec;
    {
        std::ofstream stream(part, std::ios::binary | std::ios::trunc);
        stream << text;
        stream.flush();
        if (!stream) {
            fs::remove(part, ec);
            refuse(path_, option_,
                   "writing failed (disk full, or the folder went away); the result was not saved",
                   kExitOutputNotWritten);
        }
    }
    fs::rename(part, file, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(part, ec);
        refuse(path_, option_, "cannot be replaced (" + why + "); the result was not saved",
               kExitOutputNotWritten);
    }
}

} // namespace sage::cli

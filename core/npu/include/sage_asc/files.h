// The file helpers AscendC's samples read their inputs and write their outputs with
// (`ReadFile(path, fileSize, buffer, bufferSize)`, `WriteFile(path, buffer, size)`), for a
// program run by `sage op PROGRAM.asc`: the sandbox opens no files on a program's behalf, so
// the files come from the run instead. Before the run, sage stages every file under the
// program's `input/` folder as an input of the run (named `file:input/<name>`), and every
// output file it is asked to compare as an output (`file:<path>`); these helpers copy between
// those and the program's buffers. The program includes "data_utils.h"; its run includes this.
#pragma once

#include "sage_asc/program.h"

#include <cstring>
#include <string>

namespace sage::asc {

// "./input/x.bin" -> "file:input/x.bin" (the name sage gave the staged file).
inline std::string stagedName(const std::string& path) {
    std::string p = path;
    while (p.rfind("./", 0) == 0) p = p.substr(2);
    return "file:" + p;
}

// The staged file's bytes, or null (with `bytes` 0) when the run has no such file.
inline uint8_t* stagedFile(const std::string& path, size_t& bytes) {
    bytes = 0;
    if (!g_context) return nullptr;
    try {
        const std::string name = stagedName(path);
        uint8_t* p = g_context->gm(name.c_str());
        bytes = size_t(g_context->numel(name.c_str()));
        return p;
    } catch (const std::exception&) {
        return nullptr;
    }
}

} // namespace sage::asc

inline bool ReadFile(const std::string& filePath, size_t& fileSize, void* buffer, size_t bufferSize) {
    size_t bytes = 0;
    const uint8_t* data = ::sage::asc::stagedFile(filePath, bytes);
    if (!data) {
        std::cerr << "sage: ReadFile(\"" << filePath << "\"): no such input: sage stages the files under the program's "
                  << "input/ folder (generate them first, e.g. with the example's data script)\n";
        return false;
    }
    if (!buffer || bufferSize < bytes) {
        std::cerr << "sage: ReadFile(\"" << filePath << "\"): the file holds " << bytes << " bytes, the buffer "
                  << bufferSize << "\n";
        return false;
    }
    std::memcpy(buffer, data, bytes);
    fileSize = bytes;
    return true;
}

inline bool WriteFile(const std::string& filePath, const void* buffer, size_t size) {
    size_t bytes = 0;
    uint8_t* data = ::sage::asc::stagedFile(filePath, bytes);
    if (!data) {
        std::cerr << "sage: WriteFile(\"" << filePath << "\", " << size << " bytes) is not kept: name it with "
                  << "--compare " << filePath << "=GOLDEN to have it compared\n";
        ++::sage::asc::g_unkeptWrites;
        return true;
    }
    if (!buffer || size != bytes) {
        std::cerr << "sage: WriteFile(\"" << filePath << "\") writes " << size << " bytes; its golden file holds "
                  << bytes << " (the comparison uses the first " << (size < bytes ? size : bytes) << ")\n";
    }
    if (buffer) std::memcpy(data, buffer, size < bytes ? size : bytes);
    return true;
}

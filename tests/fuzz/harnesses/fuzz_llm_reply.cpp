// A model's reply: reply::parse against a parent kernel (fences, adoption line, edits).
#include "FuzzInput.h"
#include "core/agent/src/reply/ReplyParser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string parent = "#include \"kernel_operator.h\"\nconstexpr int TILE = 1024;\nextern \"C\" __global__ "
                                      "__aicore__ void k(GM_ADDR x) {\n  // body\n}\n";
    try {
        (void)sage::agent::reply::parse(sage::fuzz::text(data, size), parent);
    } catch (const std::exception&) {
    }
    return 0;
}

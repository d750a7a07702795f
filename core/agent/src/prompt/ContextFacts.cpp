#include "prompt/ContextFacts.h"

#include "sage_npu/DeviceProfile.h"

#include <cstdio>
#include <sstream>

namespace sage::agent::prompt {
namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string kib(uint32_t bytes) { return std::to_string(bytes) + " bytes (" + num(bytes / 1024.0) + " KiB)"; }

} // namespace

std::string deviceFacts(const npu::DeviceProfile& d) {
    std::ostringstream o;
    o << "## Device: " << (d.name.empty() ? d.id : d.name) << " (`" << d.id << "`, " << d.soc << ", __NPU_ARCH__ "
      << d.npuArch << ")\n\n";
    if (d.splitArch)
        o << "- " << d.vectorCores << " vector cores and " << d.cubeCores
          << " cube cores (split): a vector kernel uses up to " << d.vectorCores << " blocks, a cube kernel up to "
          << d.cubeCores << "\n";
    else
        o << "- " << d.vectorCores << " AI cores, each with a vector and a cube unit (coupled): use up to "
          << d.vectorCores << " blocks\n";
    o << "- unified buffer (UB): " << kib(d.ubUsableBytes) << " usable by TPipe::InitBuffer, per core; L1 "
      << kib(d.l1Bytes) << "; L0A/L0B " << kib(d.l0aBytes) << "; L0C " << kib(d.l0cBytes) << "\n";
    o << "- vector instructions process " << d.vectorBytesPerRepeat << " bytes per repeat, at most " << d.maxRepeat
      << " repeats per call; DataCopy lengths and UB addresses must be multiples of 32 bytes\n";
    o << "- " << d.eventIds << " event ids for SetFlag/WaitFlag; at most " << d.maxAllocPerPosition
      << " outstanding AllocTensor per queue position; clock " << num(d.clockMhz) << " MHz\n";
    std::vector<std::string> missing;
    if (!d.dataCopyPad)
        missing.push_back("DataCopyPad (and DataCopyExtParams/DataCopyPadExtParams) does NOT exist: copy whole "
                          "32-byte blocks with DataCopy and handle a tail that is not a multiple of 32 bytes by "
                          "rounding the copy up inside the buffer and never writing past the end of global memory");
    if (!d.bfloat16) missing.push_back("bfloat16 does NOT exist: no bfloat16_t tensors or casts");
    if (!missing.empty()) {
        o << "- missing on this device:\n";
        for (const auto& m : missing) o << "  - " << m << "\n";
    }
    return o.str();
}

std::string inputRanges(const eval::Task& t) {
    if (t.init.empty()) return {};
    std::ostringstream o;
    o << "Input values (how the verifier fills the inputs):";
    for (const auto& [name, s] : t.init) {
        o << " " << name << " ";
        if (s.dist == "constant") o << "= " << num(s.value);
        else if (s.dist == "normal") o << "normal(mean " << num(s.low) << ", std " << num(s.high) << ")";
        else o << s.dist << " in [" << num(s.low) << ", " << num(s.high) << "]";
        if (s.dist != "normal" && s.low > 0) o << " (always positive)";
        else if (s.dist != "normal" && s.low >= 0) o << " (never negative)";
        o << ";";
    }
    return o.str() + "\n";
}

std::string attemptHistory(const std::vector<AttemptRecord>& history, size_t limit) {
    if (history.empty()) return {};
    std::ostringstream o;
    o << "## Your earlier attempts in this run (oldest first; do not resubmit a kernel already evaluated)\n\n";
    size_t skip = history.size() > limit ? history.size() - limit : 0;
    if (skip) o << "- iterations 0-" << skip - 1 << ": " << skip << " earlier attempts not listed\n";
    for (size_t i = skip; i < history.size(); ++i) {
        const auto& a = history[i];
        o << "- #" << a.iteration << " " << memory::toString(a.stage);
        if (a.parent >= 0) o << " of #" << a.parent;
        if (!a.move.empty()) o << " \"" << (a.move.size() > 80 ? a.move.substr(0, 77) + "..." : a.move) << "\"";
        o << ": " << toString(a.status);
        if (a.correct) o << ", correct";
        if (a.cycles) o << ", " << a.cycles << " cycles";
        if (!a.firstDiagnostic.empty())
            o << "; " << (a.firstDiagnostic.size() > 140 ? a.firstDiagnostic.substr(0, 137) + "..." : a.firstDiagnostic);
        if (!a.adoptedIds.empty()) {
            o << "; adopted";
            for (auto id : a.adoptedIds) o << " E" << id;
        }
        o << "\n";
    }
    return o.str();
}

} // namespace sage::agent::prompt

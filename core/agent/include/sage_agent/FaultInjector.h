// Fault injection for measuring the repair stage: each fault is one small, realistic mistake an
// engineer or a model makes in an AscendC kernel (a misspelt API, a missing FreeTensor, a tile
// too large for the Unified Buffer, ...), applied to a correct kernel's text so that the pipeline
// reports one diagnostic kind. `sage bench --inject-faults` starts each run from a drafted kernel
// with one fault in it; test_repairs injects every fault into drafts of several categories and
// checks that the matching repair fixes it. A fault that does not fit a kernel (no DeQue<T>, no
// DataCopyPad tail, ...) is refused, never forced.
#pragma once

#include "sage_eval/Task.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sage::npu {
struct DeviceProfile;
}

namespace sage::agent {

struct FaultDef {
    const char* name;
    const char* expectedKind;  // the diagnostic kind the pipeline reports (compile_error, deque_empty, ...)
    const char* what;          // the mistake, one line
};

struct InjectedFault {
    std::string name, expectedKind, description, source;
};

const std::vector<FaultDef>& faultCatalogue();

// Applies the named fault to `source`; nullopt (and `why`) when the kernel offers no place for it.
// `device` (may be null) bounds the oversized-tile fault by the device's Unified Buffer.
std::optional<InjectedFault> injectFault(const std::string& source, const std::string& name, const npu::DeviceProfile* device,
                                         std::string* why = nullptr);

// The names of the faults that apply to `source`, in catalogue order.
std::vector<std::string> applicableFaults(const std::string& source, const npu::DeviceProfile* device);

// The task's built-in draft (composed from its spec, no memory) with the `pick`-th fault (modulo
// their number) of those that fit it: what `sage bench --inject-faults` starts a run from.
// Nullopt when the composer cannot draft the task or no fault fits.
std::optional<InjectedFault> faultyDraft(const eval::Task& task, const npu::DeviceProfile& device, std::size_t pick);

} // namespace sage::agent

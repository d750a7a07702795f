// multi_core: spread the work over more cores (or fewer, "direction":"down"). Only for kernels that
// already split their data by GetBlockIdx(); a kernel that does not would make every core repeat
// the whole job, so it is refused (writing the split into such a kernel is not implemented).
#include "transforms/Transform.h"

#include "sage_npu/DeviceProfile.h"
#include "transforms/KernelFacts.h"

namespace sage::agent::transforms {

Result multiCore(const Input& in) {
    auto knobs = knobsWithRole(in.source, "block");
    if (knobs.empty()) return refuse("no block_dim knob: the launch's block_dim is neither a literal nor a named constant");
    if (!kernel::usesBlockSplit(in.source))
        return refuse("the kernel never calls GetBlockIdx(), so more cores would each repeat the whole job");
    const Tunable& k = knobs.front();
    const bool cube = in.source.find("Mmad") != std::string::npos;
    const long long cores = in.device ? (cube && in.device->splitArch ? in.device->cubeCores : in.device->vectorCores) : 48;
    std::vector<long long> values;
    if (in.action.contains("value") && in.action["value"].is_number_integer()) values.push_back(in.action["value"].get<long long>());
    else if (down(in)) {
        for (long long v = k.value / 2; v >= 1; v /= 2) values.push_back(v);
    } else {
        // As many cores as the device has first, then the powers of two below it (a split that
        // must come out even often needs one).
        values.push_back(cores);
        long long p = 1;
        while (p * 2 <= cores) p *= 2;
        for (long long v = p; v > k.value; v /= 2) values.push_back(v);
        if (!k.allowed.empty()) {
            values.clear();
            for (auto it = k.allowed.rbegin(); it != k.allowed.rend(); ++it)
                if (*it > k.value && *it <= cores) values.push_back(*it);
        }
    }
    return trySet(in, k, values, down(in) ? "fewer cores" : "more cores");
}

} // namespace sage::agent::transforms

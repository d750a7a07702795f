// The runner's two jobs: run a task reference on double copies of the inputs, or run a
// candidate kernel on the simulated device. Each returns the run's result as JSON.
#pragma once

#include "sage_npu/DeviceProfile.h"
#include "sage_toolchain/RunJob.h"

namespace sage::runner {

nlohmann::json runReference(void* so, const toolchain::RunSpec& run);
nlohmann::json runKernel(void* so, const toolchain::RunJob& job, const toolchain::RunSpec& run,
                         const npu::DeviceProfile& profile);
// Runs an op's host tiling (`sage op`): the request is run.extra, the answer comes back as "extra".
nlohmann::json runHostTiling(void* so, const toolchain::RunSpec& run);

} // namespace sage::runner

// The host half of `sage op`: compile an op's op_host sources with the host shim and the driver
// (host/sage_op_host_driver.h) into a host program, and run requests against it in the sandbox.
#pragma once

#include "sage_eval/OpProject.h"
#include "sage_npu/DeviceProfile.h"
#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/Sandbox.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sage::eval {

struct HostProgram {
    bool ok = false;
    std::string sharedObject;
    std::vector<toolchain::Diagnostic> diagnostics;
    // Problems that do not stop the run: the op's shape inference sources that do not compile.
    std::vector<std::string> notes;
};

HostProgram compileHostProgram(const toolchain::Compiler& compiler, const OpProject& project,
                               const npu::DeviceProfile& device);
// The platform figures PlatformAscendC answers, from the device profile.
nlohmann::json hostPlatform(const npu::DeviceProfile& device);
// One answer per request (the driver's JSON), or empty with `error` set when the sandboxed run
// itself failed (crash, timeout, sandbox violation).
std::vector<nlohmann::json> runHostRequests(const toolchain::Sandbox& sandbox, const HostProgram& program,
                                            const nlohmann::json& deviceJson, const std::vector<nlohmann::json>& requests,
                                            double timeoutSeconds, std::string& error);

} // namespace sage::eval

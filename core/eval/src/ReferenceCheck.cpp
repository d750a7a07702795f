// Evaluator::checkReference: a task's reference run on its own, before any kernel is compared with it.
#include "sage_eval/Evaluator.h"
#include "sage_eval/TensorData.h"

#include <cmath>

namespace sage::eval {
namespace {
// The first problem of one output, or "" when it is finite and (with more than one element) varies.
std::string outputProblem(const std::string& dtype, const toolchain::Blob& blob) {
    const std::vector<uint8_t> bytes(blob.data(), blob.data() + blob.size());
    const std::vector<double> values = decode(dtype, bytes);
    if (values.empty()) return "no elements";
    for (size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i])) return "not finite at element " + std::to_string(i);
    if (values.size() == 1) return "";
    for (double v : values)
        if (v != values.front()) return "";
    return "every element is " + std::to_string(values.front()) + " (a constant output checks nothing)";
}
} // namespace

ReferenceCheck Evaluator::checkReference(const Task& task, const EvalRequest& req) const {
    std::vector<RefKey> keys;
    for (const auto& c : task.cases) keys.emplace_back(c.name, task.seeds.front());
    std::atomic<bool> stop{false};
    std::string error;
    const auto refs = references(task, keys, req, stop, error);
    if (!error.empty()) return {false, error};
    for (const auto& key : keys) {
        auto it = refs.find(key);
        if (it == refs.end()) return {false, "case '" + key.first + "': the reference produced no outputs"};
        for (const auto& o : task.outputs) {
            auto blob = it->second.find(o.name);
            if (blob == it->second.end())
                return {false, "case '" + key.first + "': no output '" + o.name + "'"};
            std::string problem = outputProblem(o.dtype, blob->second);
            if (!problem.empty()) return {false, "case '" + key.first + "', output '" + o.name + "': " + problem};
        }
    }
    return {true, ""};
}

} // namespace sage::eval

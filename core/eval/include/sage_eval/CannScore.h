// CANN Bench's scores (its README, "核心评测指标"):
//   per case   HAP = (T_base - T_hw) / ((T_cand - T_hw) + (T_base - T_hw))
//              0.5: as fast as CANN's kernel; 1: at the hardware bound; above 1: faster than the bound.
//              No value (the case does not count in the performance term) when T_cand <= 0, T_hw <= 0
//              or the denominator is not positive.
//   operator   100 * [0.2 * compiled + sum over cases of accurate_i * (0.3 + 0.5 * HAP_i) / cases]
//              (a case without HAP still earns its 0.3 when accurate); 0 when the kernel does not compile.
//   level      the sum of its operators' scores; the benchmark, the sum of the levels.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sage::eval {

std::optional<double> hapScore(double candidateUs, double baselineUs, double hardwareUs);

struct CaseScore {
    bool accurate = false;
    std::optional<double> hap;  // none: not scored for performance
};

double operatorScore(bool compiled, const std::vector<CaseScore>& cases);

struct OperatorScore {
    std::string name, level;
    double score = 0;
};
// Per level, the sum of its operators' scores ("" collects operators outside a levelN folder).
std::map<std::string, double> levelSums(const std::vector<OperatorScore>& ops);

} // namespace sage::eval

#include "sage_eval/Evaluation.h"

#include <nlohmann/json.hpp>

namespace sage::eval {
struct Task;

// One CANN Bench task's evaluation scored as CANN Bench scores it: per case its accuracy, the
// simulated time, the metadata's times and HAP; the operator score. The JSON that `sage bench`
// writes per row under "cann":
//   {"level", "score", "compiled", "cases": [{"case", "accurate", "device_us", "baseline_us",
//    "hw_us", "measured", "hap", "skipped"}], "accurate_cases", "mean_hap"}
nlohmann::json scoreBenchEvaluation(const Task& task, const Evaluation& ev);

} // namespace sage::eval

#include "sage_eval/CannScore.h"

namespace sage::eval {

std::optional<double> hapScore(double candidateUs, double baselineUs, double hardwareUs) {
    if (!(candidateUs > 0) || !(hardwareUs > 0)) return std::nullopt;
    const double denominator = (candidateUs - hardwareUs) + (baselineUs - hardwareUs);
    if (!(denominator > 0)) return std::nullopt;
    return (baselineUs - hardwareUs) / denominator;
}

double operatorScore(bool compiled, const std::vector<CaseScore>& cases) {
    if (!compiled) return 0;
    double sum = 0;
    for (const auto& c : cases)
        if (c.accurate) sum += 0.3 + 0.5 * c.hap.value_or(0.0);
    return 100.0 * (0.2 + (cases.empty() ? 0.0 : sum / double(cases.size())));
}

std::map<std::string, double> levelSums(const std::vector<OperatorScore>& ops) {
    std::map<std::string, double> sums;
    for (const auto& o : ops) sums[o.level] += o.score;
    return sums;
}

} // namespace sage::eval

#include "sage_eval/CannBench.h"
#include "sage_eval/Task.h"

namespace sage::eval {

nlohmann::json scoreBenchEvaluation(const Task& task, const Evaluation& ev) {
    using nlohmann::json;
    json cases = json::array();
    std::vector<CaseScore> scores;
    double hapSum = 0;
    int hapCount = 0, accurateCount = 0;
    for (const auto& c : task.cases) {
        const auto& bc = task.bench->cases[size_t(c.benchCase)];
        json row = {{"case", c.name}, {"accurate", false}, {"device_us", nullptr}, {"hap", nullptr}};
        if (bc.timing) row.update({{"baseline_us", bc.timing->baselineUs}, {"hw_us", bc.timing->hwUs}, {"measured", bc.timing->measured}});
        CaseScore s;
        for (const auto& r : ev.run.runs)
            if (r.caseName == c.name) {
                if (r.status == toolchain::RunStatus::NotRun) row["skipped"] = r.message;
                else if (r.deviceUs > 0) row["device_us"] = r.deviceUs;
            }
        for (const auto& cc : ev.verify.cases)
            if (cc.caseName == c.name) s.accurate = cc.pass;
        if (s.accurate && bc.timing && row["device_us"].is_number())
            s.hap = hapScore(row["device_us"].get<double>(), bc.timing->baselineUs, bc.timing->hwUs);
        row["accurate"] = s.accurate;
        if (s.hap) {
            row["hap"] = *s.hap;
            hapSum += *s.hap;
            ++hapCount;
        }
        accurateCount += s.accurate;
        scores.push_back(s);
        cases.push_back(std::move(row));
    }
    return {{"level", task.bench->level},
            {"compiled", ev.compile.ok},
            {"score", operatorScore(ev.compile.ok, scores)},
            {"accurate_cases", accurateCount},
            {"mean_hap", hapCount ? json(hapSum / hapCount) : json(nullptr)},
            {"cases", cases}};
}

} // namespace sage::eval

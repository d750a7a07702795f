#include "sage_eval/Verifier.h"


#include <algorithm>
#include <cmath>
#include <sstream>

namespace sage::eval {

const std::vector<double> kHistogramEdges = {0, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1};

namespace {

std::vector<int64_t> unflatten(uint64_t flat, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        idx[d] = int64_t(flat % uint64_t(shape[d]));
        flat /= uint64_t(shape[d]);
    }
    return idx;
}

size_t histogramBin(double absErr) {
    if (!std::isfinite(absErr)) return kHistogramEdges.size() + 1;
    for (size_t i = 0; i < kHistogramEdges.size(); ++i)
        if (absErr <= kHistogramEdges[i]) return i;
    return kHistogramEdges.size();
}

std::string fmt(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace

OutputCheck verifyOutput(const std::string& name, const std::string& dtype, const std::vector<int64_t>& shape,
                         const std::vector<double>& expected, const std::vector<double>& actual, double atol,
                         double rtol) {
    OutputCheck c;
    c.name = name;
    c.dtype = dtype;
    c.atol = atol;
    c.rtol = rtol;
    c.histogram.assign(kHistogramEdges.size() + 2, 0);
    if (actual.size() != expected.size()) {
        c.reason = "output '" + name + "' has " + std::to_string(actual.size()) + " elements, expected " +
                   std::to_string(expected.size());
        return c;
    }
    const size_t n = expected.size();
    c.checked = n;
    bool allZero = true, constant = true, refVaries = false, refNonZero = false;
    const size_t sampleStep = std::max<size_t>(1, n / 2048);
    for (size_t i = 0; i < n; ++i) {
        double ref = expected[i];
        double act = actual[i];
        allZero &= act == 0;
        if (i > 0) {
            constant &= act == actual[0] || (std::isnan(act) && std::isnan(actual[0]));
            refVaries |= expected[0] != ref;
        }
        refNonZero |= ref != 0;
        double absErr, relErr;
        bool bad;
        if (std::isnan(ref)) {  // the reference itself is undefined here: accept only NaN
            absErr = std::isnan(act) ? 0 : INFINITY;
            relErr = absErr;
            bad = !std::isnan(act);
        } else if (!std::isfinite(act) || !std::isfinite(ref)) {
            bad = !(std::isinf(act) && std::isinf(ref) && (act > 0) == (ref > 0));
            absErr = bad ? INFINITY : 0;
            relErr = absErr;
        } else {
            absErr = std::fabs(act - ref);
            relErr = absErr / (std::fabs(ref) + 1e-12);
            bad = absErr > atol && relErr > rtol;
        }
        if (std::isfinite(absErr)) {
            c.maxAbsError = std::max(c.maxAbsError, absErr);
            c.maxRelError = std::max(c.maxRelError, relErr);
        } else {
            c.maxAbsError = c.maxRelError = INFINITY;
        }
        c.histogram[histogramBin(absErr)]++;
        if (i % sampleStep == 0 && c.errorSample.size() < 2048) c.errorSample.push_back(absErr);
        if (bad) {
            if (c.firstMismatches.size() < 32) c.firstMismatches.push_back({unflatten(i, shape), ref, act, absErr, relErr});
            c.mismatches++;
        }
    }
    if (c.mismatches) {
        const Mismatch& m = c.firstMismatches.front();
        std::string at;
        for (size_t d = 0; d < m.index.size(); ++d) {
            if (d) at += ',';
            at += std::to_string(m.index[d]);
        }
        c.reason = std::to_string(c.mismatches) + " of " + std::to_string(n) + " elements of '" + name +
                   "' differ beyond atol=" + fmt(atol) + " and rtol=" + fmt(rtol) + "; first at [" + at +
                   "]: expected " + fmt(m.expected) + ", got " + fmt(m.actual);
        if (!std::isfinite(m.actual)) c.reason += " (NaN/Inf: an element the kernel never wrote, or overflow?)";
        return c;
    }
    if (n > 1 && allZero && refNonZero) {
        c.reason = "output '" + name + "' is all zeros but the reference is not (trivial-output guard)";
        return c;
    }
    if (n > 1 && constant && refVaries) {
        c.reason = "output '" + name + "' is one constant value but the reference varies (trivial-output guard)";
        return c;
    }
    c.pass = true;
    return c;
}

} // namespace sage::eval

#include "sage_eval/Verifier.h"

#include "sage_toolchain/TensorCodec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
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

namespace {

// One pass over an output. Elements whose stored bits equal the reference's (the common case for
// a correct kernel) take a short path with zero error; the rest go through the full comparison.
// `at(i)` decodes element i of a tensor to double exactly as decodeTensor would, and `same(i, j)`
// says whether the stored bits of actual and expected are equal on elements [i, j). Both variants
// (raw dtype bytes and doubles) give bit-identical checks.
template <typename Exp, typename Act, typename Same>
void compareAll(OutputCheck& c, const std::vector<int64_t>& shape, size_t n, Exp expAt, Act actAt, Same same,
                double atol, double rtol, bool& allZero, bool& constant, bool& refVaries, bool& refNonZero) {
    const size_t sampleStep = std::max<size_t>(1, n / 2048);
    const double exp0 = n ? expAt(0) : 0, act0 = n ? actAt(0) : 0;
    const bool act0Nan = std::isnan(act0);
    uint64_t exact = 0;
    auto noteValues = [&](double act, double ref) {  // the trivial-output guard's four facts
        allZero &= act == 0;
        constant &= act == act0 || (act0Nan && std::isnan(act));
        refVaries |= exp0 != ref;
        refNonZero |= ref != 0;
    };
    // Once the guard's facts can no longer change, an element with identical bits needs no decode.
    auto settled = [&] { return !allZero && !constant && refVaries && refNonZero; };
    // The error sample holds the elements at multiples of sampleStep. A running index instead of
    // `i % sampleStep` per element: a 64-bit division per element was most of the loop's time.
    size_t nextSample = 0;
    auto sampleUpTo = [&](size_t end, double err) {  // elements [.., end) are done; err for those sampled
        while (nextSample < end) {
            if (c.errorSample.size() < 2048) c.errorSample.push_back(err);
            nextSample += sampleStep;
        }
    };
    constexpr size_t kBlock = 4096;
    for (size_t i = 0; i < n; ++i) {
        // A correct kernel's output is mostly bit-identical blocks: once the guard is settled, one
        // memcmp per block replaces the per-element loop (verification at memory speed).
        if (i % kBlock == 0 && i + kBlock <= n && settled() && same(i, i + kBlock)) {
            exact += kBlock;
            sampleUpTo(i + kBlock, 0);
            i += kBlock - 1;
            continue;
        }
        if (same(i, i + 1)) {  // identical bits: abs and rel error 0 (NaN matches NaN, Inf matches Inf)
            if (!settled()) {
                const double v = expAt(i);
                noteValues(v, v);
            }
            ++exact;
            if (i == nextSample) sampleUpTo(i + 1, 0);
            continue;
        }
        const double ref = expAt(i);
        const double act = actAt(i);
        noteValues(act, ref);
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
        if (i == nextSample) sampleUpTo(i + 1, absErr);
        if (bad) {
            if (c.firstMismatches.size() < 32) c.firstMismatches.push_back({unflatten(i, shape), ref, act, absErr, relErr});
            c.mismatches++;
        }
    }
    c.histogram[histogramBin(0)] += exact;
}

OutputCheck startCheck(const std::string& name, const std::string& dtype, double atol, double rtol) {
    OutputCheck c;
    c.name = name;
    c.dtype = dtype;
    c.atol = atol;
    c.rtol = rtol;
    c.histogram.assign(kHistogramEdges.size() + 2, 0);
    return c;
}

void finishCheck(OutputCheck& c, size_t n, bool allZero, bool constant, bool refVaries, bool refNonZero);

} // namespace

OutputCheck verifyOutput(const std::string& name, const std::string& dtype, const std::vector<int64_t>& shape,
                         const std::vector<double>& expected, const std::vector<double>& actual, double atol,
                         double rtol) {
    OutputCheck c = startCheck(name, dtype, atol, rtol);
    if (actual.size() != expected.size()) {
        c.reason = "output '" + name + "' has " + std::to_string(actual.size()) + " elements, expected " +
                   std::to_string(expected.size());
        return c;
    }
    const size_t n = expected.size();
    bool allZero = true, constant = true, refVaries = false, refNonZero = false;
    const double* e = expected.data();
    const double* a = actual.data();
    compareAll(
        c, shape, n, [e](size_t i) { return e[i]; }, [a](size_t i) { return a[i]; },
        [e, a](size_t i, size_t j) { return std::memcmp(e + i, a + i, (j - i) * sizeof(double)) == 0; }, atol, rtol,
        allZero, constant, refVaries, refNonZero);
    finishCheck(c, n, allZero, constant, refVaries, refNonZero);
    return c;
}

OutputCheck verifyOutput(const std::string& name, const std::string& dtype, const std::vector<int64_t>& shape,
                         const uint8_t* expected, size_t expectedBytes, const uint8_t* actual, size_t actualBytes,
                         double atol, double rtol) {
    OutputCheck c = startCheck(name, dtype, atol, rtol);
    try {
        toolchain::withStorageType(dtype, [&](auto tag) {
            using T = decltype(tag);
            const size_t ne = expectedBytes / sizeof(T), na = actualBytes / sizeof(T);
            if (na != ne) {
                c.reason = "output '" + name + "' has " + std::to_string(na) + " elements, expected " + std::to_string(ne);
                return;
            }
            bool allZero = true, constant = true, refVaries = false, refNonZero = false;
            auto load = [](const uint8_t* p, size_t i) {
                T v;
                std::memcpy(&v, p + i * sizeof(T), sizeof(T));
                return toolchain::storedToDouble(v);
            };
            compareAll(
                c, shape, ne, [&](size_t i) { return load(expected, i); }, [&](size_t i) { return load(actual, i); },
                [&](size_t i, size_t j) {
                    return std::memcmp(expected + i * sizeof(T), actual + i * sizeof(T), (j - i) * sizeof(T)) == 0;
                },
                atol, rtol, allZero, constant, refVaries, refNonZero);
            finishCheck(c, ne, allZero, constant, refVaries, refNonZero);
        });
    } catch (const std::invalid_argument& e) {
        c.reason = "output '" + name + "': " + e.what();
    }
    return c;
}

namespace {

void finishCheck(OutputCheck& c, size_t n, bool allZero, bool constant, bool refVaries, bool refNonZero) {
    const std::string& name = c.name;
    const double atol = c.atol, rtol = c.rtol;
    c.checked = n;
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
        return;
    }
    if (n > 1 && allZero && refNonZero) {
        c.reason = "output '" + name + "' is all zeros but the reference is not (trivial-output guard)";
        return;
    }
    if (n > 1 && constant && refVaries) {
        c.reason = "output '" + name + "' is one constant value but the reference varies (trivial-output guard)";
        return;
    }
    c.pass = true;
}

} // namespace

} // namespace sage::eval

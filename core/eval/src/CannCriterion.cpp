// CANN Bench's criterion (CannCriterion.h). Tensors can hold hundreds of millions of elements, so
// every pass decodes fixed-size chunks instead of whole tensors.
#include "sage_eval/CannCriterion.h"

#include "sage_toolchain/RunJob.h"
#include "sage_toolchain/TensorCodec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace sage::eval {
namespace {

constexpr uint64_t kChunk = 1 << 16;

bool isFloating(const std::string& dtype) {
    return dtype == "float16" || dtype == "bfloat16" || dtype == "float32" || dtype == "float64";
}

double largestFinite(const std::string& dtype) {
    if (dtype == "float16") return 65504.0;
    if (dtype == "bfloat16") return 3.3895313892515355e38;
    return std::numeric_limits<float>::max();
}

uint64_t elements(const RawTensor& t) {
    const uint32_t size = toolchain::dtypeBytes(t.dtype);
    return size ? t.bytes / size : 0;
}

// Calls f(index, a, b, c) for every element, decoded to double chunk by chunk; c is NaN when `third`
// has no data.
void forEach(const RawTensor& a, const RawTensor& b, const RawTensor& third, uint64_t n,
             const std::function<void(uint64_t, double, double, double)>& f) {
    std::vector<double> va(kChunk), vb(kChunk), vc(kChunk, std::numeric_limits<double>::quiet_NaN());
    const uint32_t sa = toolchain::dtypeBytes(a.dtype), sb = toolchain::dtypeBytes(b.dtype),
                   sc = third.data ? toolchain::dtypeBytes(third.dtype) : 0;
    for (uint64_t start = 0; start < n; start += kChunk) {
        const uint64_t m = std::min(kChunk, n - start);
        toolchain::decodeTensor(a.dtype, a.data + start * sa, m, va.data());
        toolchain::decodeTensor(b.dtype, b.data + start * sb, m, vb.data());
        if (sc) toolchain::decodeTensor(third.dtype, third.data + start * sc, m, vc.data());
        for (uint64_t i = 0; i < m; ++i) f(start + i, va[i], vb[i], vc[i]);
    }
}

// MERE and MARE start as NaN ("not computed"): an output that fails on its size, its NaN positions or
// an infinity's sign never gets them, and showing 0 would read as a perfect match.
OutputCheck base(const std::string& name, const RawTensor& actual, double threshold, const char* criterion) {
    OutputCheck o;
    o.name = name;
    o.dtype = actual.dtype;
    o.criterion = criterion;
    o.threshold = threshold;
    o.mere = o.mare = std::numeric_limits<double>::quiet_NaN();
    return o;
}

void noteMismatch(OutputCheck& o, uint64_t index, double expected, double got) {
    ++o.mismatches;
    if (o.firstMismatches.size() >= 32) return;
    const double abs = std::abs(got - expected);
    o.firstMismatches.push_back({{int64_t(index)}, expected, got, abs, abs / (std::abs(expected) + 1e-7)});
}

OutputCheck judgeExact(OutputCheck o, const RawTensor& actual, const RawTensor& golden, uint64_t n, double threshold) {
    o.mere = o.mare = 0;  // CANN Bench reports 0 for an exact comparison
    if (isFloating(actual.dtype)) {  // T = 0 on a floating output: the bytes must agree
        const uint32_t size = toolchain::dtypeBytes(actual.dtype);
        for (uint64_t i = 0; i < n; ++i)
            if (std::memcmp(actual.data + i * size, golden.data + i * size, size) != 0) {
                double a = 0, g = 0;
                toolchain::decodeTensor(actual.dtype, actual.data + i * size, 1, &a);
                toolchain::decodeTensor(golden.dtype, golden.data + i * size, 1, &g);
                noteMismatch(o, i, g, a);
            }
        o.checked = n;
        o.pass = o.mismatches == 0;
        if (!o.pass) o.reason = std::to_string(o.mismatches) + " of " + std::to_string(n) + " elements differ in their bytes (bit-exact check, threshold 0)";
        return o;
    }
    forEach(actual, golden, RawTensor{}, n, [&](uint64_t i, double a, double g, double) {
        const double d = std::abs(a - g);
        o.maxAbsError = std::max(o.maxAbsError, d);
        if (d > std::max(threshold, 0.0)) noteMismatch(o, i, g, a);
    });
    o.checked = n;
    o.pass = o.mismatches == 0;
    if (!o.pass)
        o.reason = std::to_string(o.mismatches) + " of " + std::to_string(n) + " integer elements differ by more than " +
                   (threshold > 0 ? std::to_string(threshold) : std::string("0 (exact match required)"));
    return o;
}

// One element as the floating criterion sees it: infinities on one side replaced, the relative
// error, and whether it counts (not NaN, not a matching infinity).
struct Element {
    double actual, golden, rel;
    bool valid;
};

Element element(double a, double g, double maxFinite) {
    const bool infA = std::isinf(a), infG = std::isinf(g);
    if (infA && infG) return {a, g, 0, false};  // same sign: checked before
    if (infA) a = std::copysign(maxFinite, a);
    if (infG) g = std::copysign(maxFinite, g);
    const double rel = std::abs(a - g) / (std::abs(g) + 1e-7);
    return {a, g, rel, !std::isnan(rel) && !std::isinf(rel)};
}

} // namespace

CannRegionBounds cannRegionBounds(const std::string& dtype) {
    auto p = [](int e) { return std::ldexp(1.0, e); };
    if (dtype == "float16") return {p(-11), p(-16), p(-5), p(-5)};
    if (dtype == "bfloat16") return {p(-8), p(-16), p(-3), p(-3)};
    return {p(-14), p(-30), p(-8), p(-8)};  // float32, and CANN Bench's fallback for others
}

OutputCheck judgeCannOutput(const std::string& name, const RawTensor& actual, const RawTensor& golden,
                            const RawTensor& native, double threshold) {
    OutputCheck o = base(name, actual, threshold, "cann");
    const uint64_t n = elements(golden);
    if (actual.dtype != golden.dtype || elements(actual) != n || actual.shape != golden.shape) {
        o.reason = "the output has " + std::to_string(elements(actual)) + " " + actual.dtype + " elements where the golden has " +
                   std::to_string(n) + " " + golden.dtype;
        return o;
    }
    if (threshold == 0 || !isFloating(actual.dtype)) return judgeExact(o, actual, golden, n, threshold);
    const double maxFinite = largestFinite(actual.dtype);
    // Pass 1: NaN positions and infinity signs agree; overall MERE and MARE.
    uint64_t valid = 0, nanMismatch = 0, infSign = 0;
    double sum = 0, most = 0;
    forEach(actual, golden, RawTensor{}, n, [&](uint64_t i, double a, double g, double) {
        if (std::isnan(a) != std::isnan(g)) {
            ++nanMismatch;
            noteMismatch(o, i, g, a);
            return;
        }
        if (std::isinf(a) && std::isinf(g) && std::signbit(a) != std::signbit(g)) ++infSign;
        const Element e = element(a, g, maxFinite);
        o.maxAbsError = std::max(o.maxAbsError, e.valid ? std::abs(e.actual - e.golden) : 0.0);
        if (!e.valid) return;
        ++valid;
        sum += e.rel;
        most = std::max(most, e.rel);
    });
    o.checked = n;
    if (nanMismatch) {
        o.reason = "NaN positions differ from the golden's at " + std::to_string(nanMismatch) + " of " + std::to_string(n) + " elements";
        return o;
    }
    if (infSign) {
        o.reason = std::to_string(infSign) + " infinities have the wrong sign";
        return o;
    }
    o.mere = valid ? sum / double(valid) : 0;
    o.mare = most;
    o.maxRelError = most;
    if (valid == 0 || (o.mere < threshold && o.mare < 10 * threshold)) {
        o.pass = true;
        return o;
    }
    // Pass 2: the three regions, each against the same-precision reference.
    const CannRegionBounds b = cannRegionBounds(actual.dtype);
    const double bad = 10 * threshold;
    uint64_t small = 0, smallBad = 0, smallRefBad = 0, cancel = 0, cancelBad = 0, cancelRefBad = 0;
    uint64_t normal = 0, normalBad = 0, normalRefBad = 0;
    double normalSum = 0, normalMost = 0;
    o.firstMismatches.clear();
    o.mismatches = 0;
    const RawTensor& reference = native.data ? native : golden;
    forEach(actual, golden, reference, n, [&](uint64_t i, double a, double g, double c) {
        const Element e = element(a, g, maxFinite);
        if (!e.valid) return;
        const double absG = std::abs(e.golden), diff = std::abs(e.actual - e.golden);
        const double refDiff = std::abs(c - e.golden), refRel = refDiff / (absG + 1e-7);
        if (e.rel > bad) noteMismatch(o, i, e.golden, e.actual);
        if (absG < b.smallValue) {
            ++small;
            smallBad += diff > b.smallValueError;
            smallRefBad += refDiff > b.smallValueError;
        } else if (std::abs(e.actual) < b.cancelZero && absG < b.cancelBoundary) {
            ++cancel;
            cancelBad += e.rel > bad;
            cancelRefBad += refRel > bad;
        } else {
            ++normal;
            normalBad += e.rel > bad;
            normalRefBad += refRel > bad;
            normalSum += e.rel;
            normalMost = std::max(normalMost, e.rel);
        }
    });
    auto withinTwice = [](uint64_t kernel, uint64_t ref) { return kernel == 0 || (ref > 0 && double(kernel) / double(ref) <= 2.0); };
    const bool smallOk = small == 0 || double(smallBad) / double(std::max<uint64_t>(smallRefBad, 1)) <= 2.0;
    const bool cancelOk = cancel == 0 || double(cancelBad) / double(std::max<uint64_t>(cancelRefBad, 1)) <= 2.0;
    const bool normalOk = withinTwice(normalBad, normalRefBad);
    o.pass = smallOk && cancelOk && normalOk;
    if (normal > 0 && (o.pass || !normalOk)) {  // what CANN Bench shows: the normal region's figures
        o.mere = normalSum / double(normal);
        o.mare = normalMost;
    } else if (o.pass) {
        o.mere = o.mare = 0;
    }
    if (!o.pass) {
        std::string why;
        auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
        if (!normalOk)
            add(std::to_string(normalBad) + " elements have a relative error above 10 T = " + std::to_string(bad) + " (the same-precision reference has " +
                std::to_string(normalRefBad) + ")");
        if (!smallOk) add("small values: " + std::to_string(smallBad) + " bad elements against the reference's " + std::to_string(smallRefBad));
        if (!cancelOk) add("cancellation: " + std::to_string(cancelBad) + " bad elements against the reference's " + std::to_string(cancelRefBad));
        o.reason = why;
    }
    return o;
}

OutputCheck judgeIndexOutput(const std::string& name, const RawTensor& indices, const RawTensor& input, int64_t dim,
                             const std::string& reduce, bool keepdim, const RawTensor& values) {
    OutputCheck o = base(name, indices, 0, "cann_index");
    const int64_t rank = int64_t(input.shape.size());
    const int64_t d = dim < 0 ? dim + rank : dim;
    if (d < 0 || d >= rank) {
        o.reason = "dim " + std::to_string(dim) + " is outside the input's " + std::to_string(rank) + " axes";
        return o;
    }
    if (!values.data && reduce != "amax" && reduce != "amin") {
        o.reason = "index check: value_reduce '" + reduce + "' is not amax or amin";
        return o;
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < d; ++i) outer *= uint64_t(input.shape[size_t(i)]);
    for (int64_t i = d + 1; i < rank; ++i) inner *= uint64_t(input.shape[size_t(i)]);
    const uint64_t axis = uint64_t(input.shape[size_t(d)]);
    // The value_output form keeps the indices' own extent along dim (top-k: k of them).
    const uint64_t slices = outer * inner;
    const uint64_t perSlice = values.data ? (slices > 0 ? elements(indices) / slices : 0) : 1;
    if (elements(indices) != outer * inner * perSlice || (values.data && elements(values) != elements(indices))) {
        o.reason = "the index output has " + std::to_string(elements(indices)) + " elements; the input's slices along dim " +
                   std::to_string(dim) + " call for " + std::to_string(outer * inner * std::max<uint64_t>(perSlice, 1));
        return o;
    }
    (void)keepdim;  // with or without the kept axis, the indices are laid out slice by slice
    std::vector<double> in(toolchain::elementCount(input.shape)), idx(elements(indices)), val;
    toolchain::decodeTensor(input.dtype, input.data, in.size(), in.data());
    toolchain::decodeTensor(indices.dtype, indices.data, idx.size(), idx.data());
    if (values.data) {
        val.resize(elements(values));
        toolchain::decodeTensor(values.dtype, values.data, val.size(), val.data());
    }
    for (uint64_t a = 0; a < outer; ++a)
        for (uint64_t c = 0; c < inner; ++c)
            for (uint64_t k = 0; k < perSlice; ++k) {
                const uint64_t at = (a * perSlice + k) * inner + c;
                const double i = idx[at];
                if (!(i >= 0 && i < double(axis))) {
                    noteMismatch(o, at, 0, i);
                    continue;
                }
                const double picked = in[(a * axis + uint64_t(i)) * inner + c];
                double want;
                if (values.data) want = val[at];
                else {
                    want = in[a * axis * inner + c];
                    for (uint64_t j = 1; j < axis; ++j) {
                        const double v = in[(a * axis + j) * inner + c];
                        if (std::isnan(want) || std::isnan(v)) want = std::numeric_limits<double>::quiet_NaN();
                        else want = reduce == "amax" ? std::max(want, v) : std::min(want, v);
                    }
                }
                if (!(picked == want || (std::isnan(picked) && std::isnan(want)))) noteMismatch(o, at, want, picked);
            }
    o.checked = idx.size();
    o.pass = o.mismatches == 0;
    if (!o.pass)
        o.reason = std::to_string(o.mismatches) + " of " + std::to_string(idx.size()) + " indices do not point at " +
                   (values.data ? std::string("the value output's element") : "the slice's " + std::string(reduce == "amax" ? "maximum" : "minimum"));
    return o;
}

} // namespace sage::eval

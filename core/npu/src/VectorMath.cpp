#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace sage::npu::vecmath {
namespace {

// Loads and stores a T through its arithmetic type (float for floating types, int64 for ints).
template <typename T> struct Num {
    using Calc = std::conditional_t<std::is_integral_v<T>, int64_t, float>;
    static Calc load(const uint8_t* p, size_t i) {
        T v;
        std::memcpy(&v, p + i * sizeof(T), sizeof(T));
        if constexpr (std::is_integral_v<T>) return Calc(v); else return static_cast<float>(v);
    }
    static void store(uint8_t* p, size_t i, Calc c) {
        T v;
        if constexpr (std::is_integral_v<T>) v = static_cast<T>(static_cast<std::make_unsigned_t<T>>(c));
        else v = T(static_cast<float>(c));
        std::memcpy(p + i * sizeof(T), &v, sizeof(T));
    }
};
template <> struct Num<half> {
    using Calc = float;
    static float load(const uint8_t* p, size_t i) {
        uint16_t b;
        std::memcpy(&b, p + i * 2, 2);
        return numeric::halfBitsToFloat(b);
    }
    static void store(uint8_t* p, size_t i, float c) {
        uint16_t b = numeric::floatToHalfBits(c);
        std::memcpy(p + i * 2, &b, 2);
    }
};
template <> struct Num<bfloat16_t> {
    using Calc = float;
    static float load(const uint8_t* p, size_t i) {
        uint16_t b;
        std::memcpy(&b, p + i * 2, 2);
        return numeric::bf16BitsToFloat(b);
    }
    static void store(uint8_t* p, size_t i, float c) {
        uint16_t b = numeric::floatToBf16Bits(c);
        std::memcpy(p + i * 2, &b, 2);
    }
};

template <typename F> decltype(auto) dispatch(DType t, F&& f) {
    switch (t) {
    case DType::F16: return f(half{});
    case DType::BF16: return f(bfloat16_t{});
    case DType::F32: return f(float{});
    case DType::I32: return f(int32_t{});
    case DType::I16: return f(int16_t{});
    case DType::I8: return f(int8_t{});
    case DType::U8: return f(uint8_t{});
    case DType::U16: return f(uint16_t{});
    case DType::U32: return f(uint32_t{});
    case DType::I64: return f(int64_t{});
    case DType::U64: return f(uint64_t{});
    }
    return f(float{});
}

template <typename T, typename Fn> void map1(uint8_t* dst, const uint8_t* a, size_t n, Fn fn) {
    using N = Num<T>;
    for (size_t i = 0; i < n; ++i) N::store(dst, i, fn(N::load(a, i)));
}
template <typename T, typename Fn> void map2(uint8_t* dst, const uint8_t* a, const uint8_t* b, size_t n, Fn fn) {
    using N = Num<T>;
    for (size_t i = 0; i < n; ++i) N::store(dst, i, fn(N::load(a, i), N::load(b, i)));
}


template <typename T> void elementwiseT(VecOp op, uint8_t* d, const uint8_t* a, const uint8_t* b, double sc, size_t n) {
    using C = typename Num<T>::Calc;
    const C s = static_cast<C>(sc);
    if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        switch (op) {
        case VecOp::Add: return map2<T>(d, a, b, n, [](C x, C y) { return x + y; });
        case VecOp::Sub: return map2<T>(d, a, b, n, [](C x, C y) { return x - y; });
        case VecOp::AddRelu: return map2<T>(d, a, b, n, [](C x, C y) { return std::max(x + y, C(0)); });
        case VecOp::SubRelu: return map2<T>(d, a, b, n, [](C x, C y) { return std::max(x - y, C(0)); });
        case VecOp::Mul: return map2<T>(d, a, b, n, [](C x, C y) { return x * y; });
        case VecOp::Div: return map2<T>(d, a, b, n, [](C x, C y) { return y == 0 ? C(0) : x / y; });
        case VecOp::Max: return map2<T>(d, a, b, n, [](C x, C y) { return std::max(x, y); });
        case VecOp::Min: return map2<T>(d, a, b, n, [](C x, C y) { return std::min(x, y); });
        case VecOp::And: return map2<T>(d, a, b, n, [](C x, C y) { return C(U(x) & U(y)); });
        case VecOp::Or: return map2<T>(d, a, b, n, [](C x, C y) { return C(U(x) | U(y)); });
        case VecOp::Adds: return map1<T>(d, a, n, [s](C x) { return x + s; });
        case VecOp::Muls: return map1<T>(d, a, n, [s](C x) { return x * s; });
        case VecOp::Maxs: return map1<T>(d, a, n, [s](C x) { return std::max(x, s); });
        case VecOp::Mins: return map1<T>(d, a, n, [s](C x) { return std::min(x, s); });
        case VecOp::ShiftLeft: return map1<T>(d, a, n, [s](C x) { return C(U(x) << (s & 31)); });
        case VecOp::ShiftRight: return map1<T>(d, a, n, [s](C x) { return C(T(x) >> (s & 31)); });
        case VecOp::Abs: return map1<T>(d, a, n, [](C x) { return x < 0 ? -x : x; });
        case VecOp::Relu: return map1<T>(d, a, n, [](C x) { return x < 0 ? C(0) : x; });
        case VecOp::Not: return map1<T>(d, a, n, [](C x) { return C(~U(x)); });
        case VecOp::Neg: return map1<T>(d, a, n, [](C x) { return -x; });
        case VecOp::Duplicate: return map1<T>(d, d, n, [s](C) { return s; });
        case VecOp::Copy: return map1<T>(d, a, n, [](C x) { return x; });
        default: return;
        }
    } else {
        switch (op) {
        case VecOp::Add: return map2<T>(d, a, b, n, [](C x, C y) { return x + y; });
        case VecOp::Sub: return map2<T>(d, a, b, n, [](C x, C y) { return x - y; });
        case VecOp::AddRelu: return map2<T>(d, a, b, n, [](C x, C y) { return std::max(x + y, C(0)); });
        case VecOp::SubRelu: return map2<T>(d, a, b, n, [](C x, C y) { return std::max(x - y, C(0)); });
        case VecOp::Mul: return map2<T>(d, a, b, n, [](C x, C y) { return x * y; });
        case VecOp::Div: return map2<T>(d, a, b, n, [](C x, C y) { return x / y; });
        case VecOp::Max: return map2<T>(d, a, b, n, [](C x, C y) { return std::max(x, y); });
        case VecOp::Min: return map2<T>(d, a, b, n, [](C x, C y) { return std::min(x, y); });
        case VecOp::Adds: return map1<T>(d, a, n, [s](C x) { return x + s; });
        case VecOp::Muls: return map1<T>(d, a, n, [s](C x) { return x * s; });
        case VecOp::Maxs: return map1<T>(d, a, n, [s](C x) { return std::max(x, s); });
        case VecOp::Mins: return map1<T>(d, a, n, [s](C x) { return std::min(x, s); });
        case VecOp::LeakyRelu: return map1<T>(d, a, n, [s](C x) { return x >= 0 ? x : x * s; });
        case VecOp::Exp: return map1<T>(d, a, n, [](C x) { return std::exp(x); });
        case VecOp::Ln: return map1<T>(d, a, n, [](C x) { return std::log(x); });
        case VecOp::Abs: return map1<T>(d, a, n, [](C x) { return std::fabs(x); });
        case VecOp::Relu: return map1<T>(d, a, n, [](C x) { return x < 0 ? C(0) : x; });
        case VecOp::Sqrt: return map1<T>(d, a, n, [](C x) { return std::sqrt(x); });
        case VecOp::Rsqrt: return map1<T>(d, a, n, [](C x) { return C(1) / std::sqrt(x); });
        case VecOp::Reciprocal: return map1<T>(d, a, n, [](C x) { return C(1) / x; });
        case VecOp::Neg: return map1<T>(d, a, n, [](C x) { return -x; });
        case VecOp::Sigmoid: return map1<T>(d, a, n, [](C x) { return sigmoid(x); });
        case VecOp::Tanh: return map1<T>(d, a, n, [](C x) { return std::tanh(x); });
        case VecOp::Gelu: return map1<T>(d, a, n, [](C x) { return geluTanh(x); });
        case VecOp::Silu: return map1<T>(d, a, n, [](C x) { return x * sigmoid(x); });
        // The documented approximations: FastGelu simplified to x / (1 + e^(-1.702 x)), and
        // FastGeluV2 x * (sgn(x) * [-0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5] + 0.5).
        case VecOp::FasterGelu: return map1<T>(d, a, n, [](C x) { return x / (C(1) + std::exp(C(-1.702) * x)); });
        case VecOp::FasterGeluV2:
            return map1<T>(d, a, n, [](C x) {
                const C clipped = std::min(std::fabs(C(0.7071) * x), C(1.769)) - C(1.769);
                const C sgn = x + C(1e-12) < 0 ? C(-1) : C(1);
                return x * (sgn * (C(-0.1444) * clipped * clipped + C(0.5)) + C(0.5));
            });
        case VecOp::Softplus: return map1<T>(d, a, n, [](C x) { return x > C(20) ? x : std::log1p(std::exp(x)); });
        case VecOp::Duplicate: return map1<T>(d, d, n, [s](C) { return s; });
        case VecOp::Sin: return map1<T>(d, a, n, [](C x) { return std::sin(x); });
        case VecOp::Cos: return map1<T>(d, a, n, [](C x) { return std::cos(x); });
        case VecOp::Tan: return map1<T>(d, a, n, [](C x) { return std::tan(x); });
        case VecOp::Asin: return map1<T>(d, a, n, [](C x) { return std::asin(x); });
        case VecOp::Acos: return map1<T>(d, a, n, [](C x) { return std::acos(x); });
        case VecOp::Atan: return map1<T>(d, a, n, [](C x) { return std::atan(x); });
        case VecOp::Sinh: return map1<T>(d, a, n, [](C x) { return std::sinh(x); });
        case VecOp::Cosh: return map1<T>(d, a, n, [](C x) { return std::cosh(x); });
        case VecOp::Erf: return map1<T>(d, a, n, [](C x) { return std::erf(x); });
        case VecOp::Erfc: return map1<T>(d, a, n, [](C x) { return std::erfc(x); });
        case VecOp::Sign: return map1<T>(d, a, n, [](C x) { return x > 0 ? C(1) : x < 0 ? C(-1) : C(0); });
        case VecOp::Log2: return map1<T>(d, a, n, [](C x) { return std::log2(x); });
        case VecOp::Log10: return map1<T>(d, a, n, [](C x) { return std::log10(x); });
        case VecOp::Floor: return map1<T>(d, a, n, [](C x) { return std::floor(x); });
        case VecOp::Ceil: return map1<T>(d, a, n, [](C x) { return std::ceil(x); });
        case VecOp::Round: return map1<T>(d, a, n, [](C x) { return std::nearbyint(x); });
        case VecOp::Trunc: return map1<T>(d, a, n, [](C x) { return std::trunc(x); });
        case VecOp::Asinh: return map1<T>(d, a, n, [](C x) { return std::asinh(x); });
        case VecOp::Acosh: return map1<T>(d, a, n, [](C x) { return std::acosh(x); });
        case VecOp::Atanh: return map1<T>(d, a, n, [](C x) { return std::atanh(x); });
        case VecOp::Pow: return map2<T>(d, a, b, n, [](C x, C y) { return std::pow(x, y); });
        case VecOp::Pows: return map1<T>(d, a, n, [s](C x) { return std::pow(x, s); });
        case VecOp::RPows: return map1<T>(d, a, n, [s](C x) { return std::pow(s, x); });
        case VecOp::Copy: return map1<T>(d, a, n, [](C x) { return x; });
        default: return;
        }
    }
}

// Rounds v to a value of the destination type under the given AscendC RoundMode.
double roundToInt(double v, int mode) {
    switch (mode) {
    case 2: return std::floor(v);
    case 3: return std::ceil(v);
    case 4: return std::round(v);  // ties away from zero
    case 5: return std::trunc(v);
    default: return std::nearbyint(v);  // RINT / NONE: ties to even (default FP environment)
    }
}

// half/bfloat16 targets: RNE conversion, then step to the neighbour the mode asks for.
template <typename T> T roundToFloat16(double v, int mode) {
    float f = static_cast<float>(v);
    auto toBits = [](float x) -> uint16_t { return T(x).bits; };
    auto fromBits = [](uint16_t b) -> float { return static_cast<float>(T::fromBits(b)); };
    uint16_t rne = toBits(f);
    if (mode == 0 || mode == 1 || std::isnan(f) || std::isinf(f)) return T::fromBits(rne);
    double back = fromBits(rne);
    if (back == v) return T::fromBits(rne);
    // Neighbours of v in the target type: lo < v < hi.
    auto step = [](uint16_t b, bool up) -> uint16_t {  // next representable toward +inf (up) or -inf
        bool neg = b & 0x8000u;
        if ((b & 0x7fffu) == 0) return up ? 1 : 0x8001u;
        return uint16_t(neg == up ? b - 1 : b + 1);
    };
    uint16_t lo = back < v ? rne : step(rne, false);
    uint16_t hi = back > v ? rne : step(rne, true);
    // Distances treat an infinite neighbour as the next power of two (65536 for half, 2^128 for
    // bfloat16), as IEEE rounding does: otherwise CAST_ROUND would never overflow to inf.
    auto finite = [&](uint16_t b) {
        double x = fromBits(b);
        if (std::isinf(x)) x = std::copysign(std::ldexp(1.0, std::is_same_v<T, half> ? 16 : 128), x);
        return x;
    };
    switch (mode) {
    case 2: return T::fromBits(lo);
    case 3: return T::fromBits(hi);
    case 5: return T::fromBits(v < 0 ? hi : lo);
    case 4: {  // nearest, ties away from zero
        double dl = v - finite(lo), dh = finite(hi) - v;
        if (dl < dh) return T::fromBits(lo);
        if (dh < dl) return T::fromBits(hi);
        return T::fromBits(v < 0 ? lo : hi);
    }
    case 6: return T::fromBits((lo & 1u) ? lo : hi);  // round to odd
    default: return T::fromBits(rne);
    }
}

float roundToF32(double v, int mode) {
    float f = static_cast<float>(v);  // ties to even
    if (mode == 0 || mode == 1 || double(f) == v || std::isnan(v)) return f;
    float lo = double(f) < v ? f : std::nextafter(f, -INFINITY);
    float hi = double(f) > v ? f : std::nextafter(f, INFINITY);
    switch (mode) {
    case 2: return lo;
    case 3: return hi;
    case 5: return v < 0 ? hi : lo;
    case 4: return (v - lo) < (hi - v) ? lo : (hi - v) < (v - lo) ? hi : (v < 0 ? lo : hi);
    case 6: { uint32_t b; std::memcpy(&b, &lo, 4); return (b & 1u) ? lo : hi; }
    default: return f;
    }
}

template <typename D> void storeCast(uint8_t* dst, size_t i, double v, int mode) {
    D out;
    if constexpr (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>) {
        out = roundToFloat16<D>(v, mode);
    } else if constexpr (std::is_same_v<D, float>) {
        out = roundToF32(v, mode);
    } else {
        double r = std::isnan(v) ? 0.0 : roundToInt(v, mode);
        r = std::clamp(r, double(std::numeric_limits<D>::lowest()), double(std::numeric_limits<D>::max()));
        out = static_cast<D>(r);
    }
    std::memcpy(dst + i * sizeof(D), &out, sizeof(D));
}

template <typename S> double loadAsDouble(const uint8_t* p, size_t i) {
    S v;
    std::memcpy(&v, p + i * sizeof(S), sizeof(S));
    if constexpr (std::is_integral_v<S>) return double(v); else return double(static_cast<float>(v));
}

} // namespace

void elementwise(VecOp op, DType t, uint8_t* dst, const uint8_t* a, const uint8_t* b, double scalar, size_t n) {
    dispatch(t, [&](auto tag) { elementwiseT<decltype(tag)>(op, dst, a, b, scalar, n); });
}

void cast(DType dt, DType st, uint8_t* dst, const uint8_t* src, int mode, size_t n) {
    if (mode < 0) mode = 0;  // RoundMode::UNKNOWN (no mode given): the conversion's natural one, as CAST_NONE
    std::vector<double> tmp(n);  // src and dst may overlap (in-place widening/narrowing)
    dispatch(st, [&](auto s) {
        for (size_t i = 0; i < n; ++i) tmp[i] = loadAsDouble<decltype(s)>(src, i);
    });
    // float -> float with RINT/FLOOR/CEIL/ROUND/TRUNC rounds to an integral value (the documented
    // 910B Cast<float, float>); CAST_NONE copies.
    if (dt == DType::F32 && st == DType::F32 && mode >= 1 && mode <= 5)
        for (auto& v : tmp) v = roundToInt(v, mode);
    dispatch(dt, [&](auto d) {
        for (size_t i = 0; i < n; ++i) storeCast<decltype(d)>(dst, i, tmp[i], mode);
    });
}

double loadScalar(DType t, const uint8_t* src) {
    return dispatch(t, [&](auto s) { return loadAsDouble<decltype(s)>(src, 0); });
}

void loadFloats(DType t, const uint8_t* src, size_t n, float* dst, size_t stride) {
    dispatch(t, [&](auto s) {
        for (size_t i = 0; i < n; ++i) dst[i * stride] = float(loadAsDouble<decltype(s)>(src, i));
    });
}

void addFloatsAndStore(DType t, uint8_t* dst, const uint8_t* prev, const float* acc, size_t n) {
    dispatch(t, [&](auto d) {
        using D = decltype(d);
        for (size_t i = 0; i < n; ++i) storeCast<D>(dst, i, (prev ? loadAsDouble<D>(prev, i) : 0.0) + double(acc[i]), 1);
    });
}

void storeScalar(DType t, uint8_t* dst, double v) {
    dispatch(t, [&](auto d) { storeCast<decltype(d)>(dst, 0, v, 1); });
}

void storeIndex(DType t, uint8_t* dst, uint32_t index) {
    // The hardware writes the index as raw integer bits into the element slot.
    if (dtypeSize(t) == 2) { uint16_t v = uint16_t(index); std::memcpy(dst, &v, 2); }
    else std::memcpy(dst, &index, 4);
}

double reduce(ReduceOp op, DType t, const uint8_t* src, size_t n, size_t groupElems, uint32_t* index,
              bool sequentialGroups) {
    return dispatch(t, [&](auto tag) -> double {
        using T = decltype(tag);
        using N = Num<T>;
        using C = typename N::Calc;
        if (n == 0) return 0.0;
        if (op != ReduceOp::Sum) {  // max/min: order does not change the value; keep the first index
            C best = N::load(src, 0);
            uint32_t at = 0;
            for (size_t i = 1; i < n; ++i) {
                C v = N::load(src, i);
                if ((op == ReduceOp::Max && v > best) || (op == ReduceOp::Min && v < best)) { best = v; at = uint32_t(i); }
            }
            if (index) *index = at;
            return double(best);
        }
        // Sum: pairwise tree per group, rounding to T after every addition as the hardware does.
        auto round = [](C v) { uint8_t buf[sizeof(T)]; N::store(buf, 0, v); return N::load(buf, 0); };
        auto tree = [&](std::vector<C>& v) {
            while (v.size() > 1) {
                size_t half = v.size() / 2;
                for (size_t i = 0; i < half; ++i) v[i] = round(v[2 * i] + v[2 * i + 1]);
                if (v.size() % 2) { v[half] = v.back(); v.resize(half + 1); } else v.resize(half);
            }
            return v.empty() ? C(0) : v[0];
        };
        std::vector<C> partial;
        std::vector<C> group;
        for (size_t g = 0; g < n; g += groupElems) {
            group.clear();
            for (size_t i = g; i < std::min(n, g + groupElems); ++i) group.push_back(N::load(src, i));
            partial.push_back(tree(group));
        }
        if (index) *index = 0;
        if (sequentialGroups && !partial.empty()) {  // group results added one after another
            C acc = partial[0];
            for (size_t i = 1; i < partial.size(); ++i) acc = round(acc + partial[i]);
            return double(acc);
        }
        return double(tree(partial));
    });
}

void accumulate(DType t, uint8_t* dst, const uint8_t* src, size_t n, int mode) {
    VecOp op = mode == 2 ? VecOp::Max : mode == 3 ? VecOp::Min : VecOp::Add;
    elementwise(op, t, dst, dst, src, 0.0, n);
}

void compare(DType t, uint8_t* dstBits, const uint8_t* a, const uint8_t* b, double scalar, int mode, size_t n) {
    dispatch(t, [&](auto tag) {
        using N = Num<decltype(tag)>;
        using C = typename N::Calc;
        std::memset(dstBits, 0, (n + 7) / 8);
        for (size_t i = 0; i < n; ++i) {
            C x = N::load(a, i), y = b ? N::load(b, i) : static_cast<C>(scalar);
            bool r = mode == 0 ? x < y : mode == 1 ? x > y : mode == 2 ? x == y : mode == 3 ? x <= y
                   : mode == 4 ? x >= y : x != y;
            if (r) dstBits[i / 8] |= uint8_t(1u << (i % 8));
        }
    });
}

void select(DType t, uint8_t* dst, const uint8_t* bits, const uint8_t* a, const uint8_t* b, double scalar, size_t n,
            size_t bitPeriod) {
    dispatch(t, [&](auto tag) {
        using N = Num<decltype(tag)>;
        using C = typename N::Calc;
        for (size_t i = 0; i < n; ++i) {
            size_t bit = bitPeriod ? i % bitPeriod : i;
            bool pick = (bits[bit / 8] >> (bit % 8)) & 1u;
            N::store(dst, i, pick ? N::load(a, i) : (b ? N::load(b, i) : static_cast<C>(scalar)));
        }
    });
}

} // namespace sage::npu::vecmath

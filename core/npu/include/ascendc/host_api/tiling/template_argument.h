// Tiling template programming (ascendc/host_api/tiling/template_argument.h): a kernel declares its
// template arguments (ASCENDC_TPL_ARGS_DECL) and the combinations the build instantiates
// (ASCENDC_TPL_SEL); the host turns argument values into a tiling key (GET_TPL_TILING_KEY,
// ASCENDC_TPL_SEL_PARAM). Here the declaration becomes a table of the arguments' bit widths and
// the key packs the values in declaration order, the first argument in the lowest bits. The
// selection lists only matter to the real build's instantiation; they compile to nothing.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

// Value-set modes and bit widths of a UINT argument.
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
// Kernel types a selection may name, and the tensor a DATATYPE/FORMAT argument follows.
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 2
#define ASCENDC_TPL_MIX_AIC_1_0 3
#define ASCENDC_TPL_MIX_AIC_1_1 4
#define ASCENDC_TPL_MIX_AIC_1_2 5
#define ASCENDC_TPL_INPUT(n) (n)
#define ASCENDC_TPL_OUTPUT(n) (n)

namespace AscendC {
namespace tpl {

struct ArgDecl {
    const char* name;
    uint32_t bitWidth;
};

// The tiling key of `values` under `decl`: each value in its argument's bits, first argument
// lowest. A value wider than its bits, or a count that differs from the declaration, is an error
// of the host tiling (thrown, so that the tiling run reports it).
template <size_t N>
inline uint64_t encodeTilingKey(const ArgDecl (&decl)[N], std::initializer_list<uint64_t> values) {
    if (values.size() != N)
        throw std::invalid_argument("GET_TPL_TILING_KEY: " + std::to_string(values.size()) + " values for " +
                                    std::to_string(N) + " declared template arguments; pass one per ASCENDC_TPL_*_DECL, in order");
    uint64_t key = 0;
    uint32_t shift = 0;
    size_t i = 0;
    for (uint64_t v : values) {
        const uint32_t bits = decl[i].bitWidth;
        if (bits < 64 && (v >> bits) != 0)
            throw std::invalid_argument(std::string("GET_TPL_TILING_KEY: value ") + std::to_string(v) + " of '" +
                                        decl[i].name + "' does not fit its " + std::to_string(bits) + " bits");
        if (shift + bits > 64)
            throw std::invalid_argument("GET_TPL_TILING_KEY: the declared template arguments need more than 64 bits");
        key |= v << shift;
        shift += bits;
        ++i;
    }
    return key;
}

} // namespace tpl
} // namespace AscendC

#define ASCENDC_TPL_UINT_DECL(name, bitWidth, ...) ::AscendC::tpl::ArgDecl{#name, uint32_t(bitWidth)}
#define ASCENDC_TPL_DTYPE_DECL(name, ...) ::AscendC::tpl::ArgDecl{#name, 8u}
#define ASCENDC_TPL_DATATYPE_DECL(name, ...) ::AscendC::tpl::ArgDecl{#name, 8u}
#define ASCENDC_TPL_FORMAT_DECL(name, ...) ::AscendC::tpl::ArgDecl{#name, 8u}
#define ASCENDC_TPL_BOOL_DECL(name, ...) ::AscendC::tpl::ArgDecl{#name, 1u}
#define ASCENDC_TPL_ARGS_DECL(op, ...) \
    [[maybe_unused]] static const ::AscendC::tpl::ArgDecl g_tilingDeclareParams[] = {__VA_ARGS__}

// Selections: consumed by the real build to choose instantiations; nothing here.
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_ARGS_DSEL(...)
#define ASCENDC_TPL_SEL(...) static_assert(true, "template argument selections are the real build's")

#define GET_TPL_TILING_KEY(...) ::AscendC::tpl::encodeTilingKey(g_tilingDeclareParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                        \
    do {                                                           \
        const uint64_t sageTplKey = GET_TPL_TILING_KEY(__VA_ARGS__); \
        (context)->SetTilingKey(sageTplKey);                       \
    } while (0)

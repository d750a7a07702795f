#include "sage_toolchain/DiagnosticKind.h"

#include "sage_toolchain/NameTable.h"

#include <array>
#include <cstddef>

namespace sage::toolchain {
namespace {

// Indexed by DiagnosticKind::Code; the order is the enum's.
constexpr std::array<std::string_view, 45> kNames{
    "other",
    "compile_error", "compile_warning", "link_error", "rejected_include", "rejected_api", "rejected_path", "rejected_program",
    "capacity_exceeded", "misaligned_address", "datacopy_not_32b_multiple", "datacopy_params", "gm_out_of_bounds",
    "local_out_of_bounds", "ub_uninitialised_read", "address_overlap", "gather_offset_out_of_range", "gathermask_pattern",
    "too_many_allocs", "alloc_no_free_buffer", "enque_beyond_depth", "deque_empty", "invalid_free", "invalid_enque",
    "queue_not_initialised", "tbuf_not_initialised",
    "flag_unpaired", "bad_event_id", "deadlock", "race_raw", "race_war", "race_waw",
    "vector_count_exceeds_tensor", "repeat_exceeds_255", "reduce_params", "reduce_register_unset", "wrong_position",
    "wrong_dtype", "matmul_operand_missing", "mmad_bias_ignored", "unsupported",
    "launch_invalid", "assert_failed", "kernel_exception",
    "wrong_result"};
static_assert(kNames.size() == std::size_t(DiagnosticKind::WrongResult) + 1, "one name per DiagnosticKind::Code");

} // namespace

DiagnosticKind DiagnosticKind::parse(std::string_view text) {
    if (auto i = indexOfName(kNames, text, 1)) return DiagnosticKind(Code(*i));  // "other" is no kind's name
    DiagnosticKind unknown;
    unknown.text_ = std::string(text);
    return unknown;
}

std::string_view DiagnosticKind::nameOf(Code code) { return kNames[std::size_t(code)]; }

std::string_view DiagnosticKind::name() const { return code_ == Other ? std::string_view(text_) : nameOf(code_); }

} // namespace sage::toolchain

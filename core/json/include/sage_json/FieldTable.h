#pragma once
// A record's plain JSON fields named once, in one table that both writes and reads them, so a key's
// spelling and the member it stands for live in one place for both directions (a field added to the
// writer but forgotten by the reader was the bug this prevents). Nested arrays and objects with
// their own shape stay hand-written next to the table.
//
//     using namespace sage::fields;
//     constexpr auto kLaunchFields = table(field("total_cycles", &Launch::totalCycles), ...);
//     write(j, launch, kLaunchFields);
//     read(j, launch, kLaunchFields);
#include <nlohmann/json.hpp>

#include <tuple>
#include <utility>

namespace sage::fields {

template <class Record, class Member> struct Field {
    const char* key;
    Member Record::*member;
};

template <class Record, class Member> constexpr Field<Record, Member> field(const char* key, Member Record::*member) {
    return {key, member};
}

template <class... F> constexpr std::tuple<F...> table(F... f) { return {f...}; }

template <class Record, class Table> void write(nlohmann::json& out, const Record& record, const Table& fieldTable) {
    std::apply([&](const auto&... f) { ((out[f.key] = record.*(f.member)), ...); }, fieldTable);
}

// Reading is tolerant: a missing, null or mistyped field keeps the member's current value (its
// default), so a file written by an older or newer build still opens.
template <class Member> void readOne(const nlohmann::json& in, const char* key, Member& member) {
    const auto it = in.find(key);
    if (it == in.end() || it->is_null()) return;
    try {
        Member value = it->template get<Member>();
        member = std::move(value);
    } catch (const nlohmann::json::exception&) {
    }
}

template <class Record, class Table> void read(const nlohmann::json& in, Record& record, const Table& fieldTable) {
    if (!in.is_object()) return;
    std::apply([&](const auto&... f) { (readOne(in, f.key, record.*(f.member)), ...); }, fieldTable);
}

} // namespace sage::fields

// compute.layout of a matmul spec: transposed operands, triangular operands, a diagonal left
// operand. The shapes that go with them are the draft's to check.
#include "sage_eval/ComputeSpec.h"

#include <set>

namespace sage::eval {
using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& what) {
    throw std::invalid_argument("field '" + field + "': " + what);
}

bool flag(const json& j, const char* key) {
    if (!j.contains(key)) return false;
    if (!j[key].is_boolean()) bad(std::string("compute.layout.") + key, "must be true or false, got " + j[key].dump());
    return j[key].get<bool>();
}

} // namespace

MatmulLayout parseMatmulLayout(const json& j) {
    if (!j.is_object())
        bad("compute.layout", "must be an object: {\"transpose_a\": true, \"transpose_b\": false, \"triangular\": \"upper\", "
                              "\"diagonal_a\": false}");
    static const std::set<std::string> keys = {"transpose_a", "transpose_b", "triangular", "diagonal_a", "symmetric"};
    for (auto& [k, v] : j.items())
        if (!keys.count(k)) bad("compute.layout." + k, "unknown field (transpose_a, transpose_b, triangular, diagonal_a, symmetric)");
    MatmulLayout l;
    l.transposeA = flag(j, "transpose_a");
    l.transposeB = flag(j, "transpose_b");
    l.diagonalA = flag(j, "diagonal_a");
    l.symmetric = flag(j, "symmetric");
    if (j.contains("triangular")) {
        const json& t = j["triangular"];
        if (!t.is_string() || (t.get<std::string>() != "upper" && t.get<std::string>() != "lower"))
            bad("compute.layout.triangular", "must be \"upper\" or \"lower\", got " + t.dump());
        l.triangular = t.get<std::string>();
    }
    if (l.diagonalA && (l.transposeA || l.transposeB || !l.triangular.empty()))
        bad("compute.layout.diagonal_a", "a diagonal left operand takes no transpose or triangle");
    if (l.symmetric && (l.diagonalA || l.transposeA || l.transposeB || !l.triangular.empty()))
        bad("compute.layout.symmetric", "symmetric operands take no transpose, triangle or diagonal");
    if (!l.triangular.empty() && (l.transposeA || l.transposeB))
        bad("compute.layout.triangular", "triangular operands are read as stored: no transpose with them");
    return l;
}

json MatmulLayout::toJson() const {
    json j = json::object();
    if (transposeA) j["transpose_a"] = true;
    if (transposeB) j["transpose_b"] = true;
    if (!triangular.empty()) j["triangular"] = triangular;
    if (diagonalA) j["diagonal_a"] = true;
    if (symmetric) j["symmetric"] = true;
    return j;
}

} // namespace sage::eval

// Reads a CANN Bench operator folder (CannBench.h). YAML comes in through yaml-cpp and is turned
// into JSON values once, so the rest of SAGE handles one document model.
#include "sage_eval/CannBench.h"
#include "sage_eval/Task.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/Hash.h"
#include "sage_toolchain/RunJob.h"
#include "sage_toolchain/ToolPaths.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>

namespace sage::eval::cannbench {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A plain YAML scalar as a number, bool or null where YAML 1.2's core schema reads it so;
// a quoted scalar stays a string.
json scalarToJson(const YAML::Node& n) {
    const std::string& s = n.Scalar();
    if (n.Tag() == "!") return s;  // quoted
    static const std::regex integer(R"(^[-+]?[0-9]+$)");
    static const std::regex real(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
    if (std::regex_match(s, integer)) {
        try {
            return std::stoll(s);
        } catch (const std::out_of_range&) {
            return std::stod(s);
        }
    }
    if (std::regex_match(s, real)) return std::stod(s);
    // JSON has no infinity or NaN: YAML's special floats become {"$float": "inf"} (specialFloat), so
    // that they stay apart from the strings "inf" and "nan" an operator may take.
    if (s == ".inf" || s == "+.inf" || s == ".Inf" || s == ".INF") return json{{"$float", "inf"}};
    if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return json{{"$float", "-inf"}};
    if (s == ".nan" || s == ".NaN" || s == ".NAN") return json{{"$float", "nan"}};
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    if (s == "null" || s == "~" || s == "Null" || s.empty()) return nullptr;
    return s;
}

json toJson(const YAML::Node& n) {
    switch (n.Type()) {
    case YAML::NodeType::Scalar: return scalarToJson(n);
    case YAML::NodeType::Sequence: {
        json a = json::array();
        for (const auto& e : n) a.push_back(toJson(e));
        return a;
    }
    case YAML::NodeType::Map: {
        json o = json::object();
        for (const auto& kv : n) o[kv.first.Scalar()] = toJson(kv.second);
        return o;
    }
    default: return nullptr;
    }
}

json readYaml(const fs::path& file) {
    if (!fs::exists(file)) throw TaskError(file.string() + ": missing (a CANN Bench operator folder needs it)");
    try {
        return toJson(YAML::LoadFile(file.string()));
    } catch (const YAML::Exception& e) {
        throw TaskError(file.string() + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
    }
}

[[noreturn]] void fail(const fs::path& file, const std::string& field, const std::string& what) {
    throw TaskError(file.string() + ": field '" + field + "': " + what);
}

std::string text(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

std::vector<ProtoTensor> tensors(const json& list, const fs::path& file, const std::string& field) {
    std::vector<ProtoTensor> out;
    if (list.is_null()) return out;
    if (!list.is_array()) fail(file, field, "must be a list of tensors");
    for (size_t i = 0; i < list.size(); ++i) {
        const json& t = list[i];
        const std::string where = field + "[" + std::to_string(i) + "]";
        if (!t.is_object() || !t.contains("name") || !t["name"].is_string()) fail(file, where + ".name", "missing");
        ProtoTensor p;
        p.name = t["name"];
        if (t.contains("dtype") && t["dtype"].is_array())
            for (const auto& d : t["dtype"])
                if (d.is_string()) p.dtypes.push_back(d);
        if (t.contains("compare") && t["compare"].is_boolean()) p.compare = t["compare"];
        if (t.contains("index_gather")) p.indexGather = t["index_gather"];
        out.push_back(std::move(p));
    }
    return out;
}

Proto readProto(const fs::path& file) {
    const json doc = readYaml(file);
    if (!doc.is_object() || !doc.contains("operator") || !doc["operator"].is_object())
        fail(file, "operator", "missing (proto.yaml describes one operator under 'operator:')");
    const json& op = doc["operator"];
    Proto p;
    p.name = text(op, "name");
    p.category = text(op, "category");
    p.difficulty = text(op, "difficulty");
    p.formula = text(op, "formula");
    p.description = text(op, "description");
    p.schema = text(op, "schema");
    static const std::regex fn(R"(^\s*(\w+)\s*\()");
    std::smatch m;
    if (!std::regex_search(p.schema, m, fn)) fail(file, "operator.schema", "must start with the golden's function name and '('");
    p.function = m[1];
    if (p.name.empty()) fail(file, "operator.name", "missing");
    p.inputs = tensors(op.value("inputs", json()), file, "operator.inputs");
    p.outputs = tensors(op.value("outputs", json()), file, "operator.outputs");
    if (p.outputs.empty()) fail(file, "operator.outputs", "must list at least one output");
    if (op.contains("attrs") && op["attrs"].is_array())
        for (const auto& a : op["attrs"]) {
            if (!a.is_object() || !a.contains("name")) continue;
            ProtoAttr attr;
            attr.name = text(a, "name");
            attr.type = text(a, "type");
            attr.required = a.value("required", false) == true;
            attr.defaultValue = a.value("default", json());
            p.attrs.push_back(std::move(attr));
        }
    if (op.contains("precision_thresholds") && op["precision_thresholds"].is_object())
        for (const auto& [dtype, t] : op["precision_thresholds"].items())
            if (t.is_number()) p.precisionThresholds.push_back({dtype, t.get<double>()});
    return p;
}

std::vector<BenchCase> readCases(const fs::path& file) {
    const json doc = readYaml(file);
    if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array() || doc["cases"].empty())
        fail(file, "cases", "missing or empty (cases.yaml lists the cases under 'cases:')");
    std::vector<BenchCase> out;
    for (size_t i = 0; i < doc["cases"].size(); ++i) {
        const json& c = doc["cases"][i];
        const std::string where = "cases[" + std::to_string(i) + "]";
        if (!c.is_object() || !c.contains("case_id") || !c["case_id"].is_number_integer())
            fail(file, where + ".case_id", "missing or not an integer");
        BenchCase b;
        b.id = c["case_id"];
        for (const auto& other : out)
            if (other.id == b.id) fail(file, where + ".case_id", std::to_string(b.id) + " is used twice");
        b.inputShapes = c.value("input_shape", json());
        if (!b.inputShapes.is_array()) fail(file, where + ".input_shape", "must be a list with one entry per input");
        b.dtypes = c.value("dtype", json());
        b.attrs = c.value("attrs", json::object());
        if (b.attrs.is_null()) b.attrs = json::object();
        if (!b.attrs.is_object()) fail(file, where + ".attrs", "must be a mapping of attribute names to values");
        b.valueRange = c.value("value_range", json());
        b.note = text(c, "note");
        out.push_back(std::move(b));
    }
    return out;
}

// metadata/<hardware>.json in the operator's folder or up to three folders above it.
fs::path findMetadata(const fs::path& opDir, const std::string& hardware) {
    fs::path at = opDir;
    for (int up = 0; up < 4 && !at.empty(); ++up, at = at.parent_path()) {
        fs::path f = at / "metadata" / (hardware + ".json");
        if (fs::exists(f)) return f;
        if (at == at.parent_path()) break;
    }
    return {};
}

void attachTimings(Operator& op, const fs::path& metadata) {
    json doc;
    try {
        std::ifstream in(metadata);
        doc = json::parse(in);
    } catch (const std::exception& e) {
        throw TaskError(metadata.string() + ": not valid JSON: " + e.what());
    }
    const json* table = nullptr;
    if (doc.contains(op.level) && doc[op.level].contains(op.folder)) table = &doc[op.level][op.folder];
    else
        for (const auto& [level, ops] : doc.items())  // a folder outside levelN: find the operator by name
            if (ops.is_object() && ops.contains(op.folder)) table = &ops[op.folder];
    if (!table) return;
    op.metadataFile = metadata.string();
    for (auto& c : op.cases) {
        auto it = table->find(std::to_string(c.id));
        if (it == table->end() || !it->is_object()) continue;
        Timing t;
        t.baselineUs = it->value("baseline_perf_us", 0.0);
        t.hwUs = it->value("t_hw_us", 0.0);
        const double standIn = std::max(10 * t.hwUs, 10.0);
        t.measured = std::abs(t.baselineUs - standIn) > 0.005 + 1e-6 * standIn;
        if (t.baselineUs > 0 && t.hwUs > 0) c.timing = t;
    }
}

uint64_t shapeBytes(const json& shape, const std::string& dtype) {
    uint64_t n = 1;
    for (const auto& d : shape) n *= d.is_number_integer() && d.get<int64_t>() > 0 ? d.get<uint64_t>() : 0;
    const uint32_t size = toolchain::dtypeBytes(dtype);
    return n * (size ? size : 4);
}

bool isShape(const json& s) {
    return s.is_array() && std::all_of(s.begin(), s.end(), [](const json& d) { return d.is_number_integer(); });
}

} // namespace

uint64_t BenchCase::largestInputBytes() const {
    uint64_t most = 0;
    for (size_t i = 0; i < inputShapes.size(); ++i) {
        json dt = dtypes.is_array() && !dtypes.empty() ? dtypes[std::min(i, dtypes.size() - 1)] : dtypes;
        auto dtypeAt = [&](size_t k) {
            if (dt.is_string()) return dt.get<std::string>();
            if (dt.is_array() && !dt.empty() && dt[std::min(k, dt.size() - 1)].is_string()) return dt[std::min(k, dt.size() - 1)].get<std::string>();
            return std::string("float32");
        };
        const json& s = inputShapes[i];
        if (isShape(s)) most = std::max(most, shapeBytes(s, dtypeAt(0)));
        else if (s.is_array())
            for (size_t k = 0; k < s.size(); ++k)
                if (isShape(s[k])) most = std::max(most, shapeBytes(s[k], dtypeAt(k)));
    }
    return most;
}

std::optional<double> numberOf(const json& v) {
    if (v.is_boolean()) return double(v.get<bool>());
    if (v.is_number()) return v.get<double>();
    if (v.is_object() && v.size() == 1 && v.contains("$float") && v["$float"].is_string()) {
        const std::string f = v["$float"];
        if (f == "inf") return std::numeric_limits<double>::infinity();
        if (f == "-inf") return -std::numeric_limits<double>::infinity();
        if (f == "nan") return std::numeric_limits<double>::quiet_NaN();
    }
    return std::nullopt;
}

double defaultThreshold(const std::string& dtype) {
    if (dtype == "float16") return std::ldexp(1.0, -10);
    if (dtype == "bfloat16") return std::ldexp(1.0, -7);
    if (dtype == "float32" || dtype == "float64") return std::ldexp(1.0, -13);
    if (dtype == "hifloat32") return std::ldexp(1.0, -11);
    if (dtype.find("int") != std::string::npos || dtype == "bool") return 0;
    return std::ldexp(1.0, -13);  // CANN Bench's fallback for a dtype it does not list
}

double Operator::thresholdFor(const std::string& dtype) const {
    for (const auto& [d, t] : proto.precisionThresholds)
        if (d == dtype) return t;
    return defaultThreshold(dtype);
}

bool isOperatorFolder(const std::string& dir) {
    const fs::path d(dir);
    std::error_code ec;
    return fs::exists(d / "proto.yaml", ec) && fs::exists(d / "cases.yaml", ec) && fs::exists(d / "golden.py", ec);
}

std::vector<std::string> operatorFoldersUnder(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    if (isOperatorFolder(dir)) return {dir};
    std::vector<fs::path> level{fs::path(dir)};
    for (int depth = 0; depth < 3 && !level.empty(); ++depth) {
        std::vector<fs::path> next;
        for (const auto& d : level)
            for (const auto& e : fs::directory_iterator(d, ec)) {
                if (!e.is_directory(ec) || e.is_symlink(ec)) continue;
                if (isOperatorFolder(e.path().string())) out.push_back(e.path().string());
                else if (e.path().filename() != "metadata") next.push_back(e.path());
            }
        level = std::move(next);
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool holdsOperators(const std::string& dir) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_directory(ec) && fs::exists(e.path() / "task.json", ec)) return false;
    return !operatorFoldersUnder(dir).empty();
}

Operator loadOperator(const std::string& dirPath, const std::string& hardware) {
    const fs::path dir = fs::weakly_canonical(fs::path(dirPath));
    Operator op;
    op.dir = dir.string();
    op.folder = dir.filename().string();
    const std::string parent = dir.parent_path().filename().string();
    if (std::regex_match(parent, std::regex(R"(level\d+)"))) op.level = parent;
    op.proto = readProto(dir / "proto.yaml");
    op.cases = readCases(dir / "cases.yaml");
    for (size_t i = 0; i < op.cases.size(); ++i) {
        const size_t shapes = op.cases[i].inputShapes.size();
        // Trailing optional inputs may be left out; more entries than inputs cannot be placed.
        if (shapes > op.proto.inputs.size())
            fail(dir / "cases.yaml", "cases[" + std::to_string(i) + "].input_shape",
                 std::to_string(shapes) + " entries for the " + std::to_string(op.proto.inputs.size()) +
                     " inputs of proto.yaml (one entry per input, in proto.yaml's order)");
    }
    op.goldenFile = (dir / "golden.py").string();
    if (fs::exists(dir / "desc.md")) op.descMarkdown = toolchain::readTextFile((dir / "desc.md").string());
    op.contentHash = toolchain::ContentHash()
                         .add(toolchain::readTextFile((dir / "proto.yaml").string()))
                         .add(toolchain::readTextFile((dir / "cases.yaml").string()))
                         .add(toolchain::readTextFile(op.goldenFile))
                         .hex();
    if (fs::path meta = findMetadata(dir, hardware); !meta.empty()) attachTimings(op, meta);
    // The compute spec: one beside the operator's files (sage_spec.json, an engineer's own), else SAGE's.
    fs::path spec = dir / "sage_spec.json";
    if (!fs::exists(spec)) spec = fs::path(toolchain::ToolPaths::fromEnvironment().resources) / "cann-bench" / "specs" / (op.folder + ".json");
    if (fs::exists(spec)) {
        op.draftSpecFile = spec.string();
        try {
            std::ifstream in(spec);
            op.draftSpec = json::parse(in);
        } catch (const std::exception& e) {
            throw TaskError(spec.string() + ": not valid JSON: " + e.what());
        }
    }
    return op;
}

} // namespace sage::eval::cannbench

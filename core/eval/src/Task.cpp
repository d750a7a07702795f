#include "sage_eval/Task.h"
#include "sage_eval/CannBench.h"

#include "sage_json/BoundedJson.h"
#include "sage_toolchain/Expression.h"
#include "sage_toolchain/Files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class Fields {
public:
    explicit Fields(std::string file) : file_(std::move(file)) {}
    [[noreturn]] void fail(const std::string& field, const std::string& what) const {
        throw TaskError(file_ + ": field '" + field + "': " + what);
    }
    const json& need(const json& obj, const std::string& key, const std::string& path) const {
        if (!obj.is_object() || !obj.contains(key)) fail(path, "missing");
        return obj.at(key);
    }
    std::string text(const json& obj, const std::string& key, const std::string& path) const {
        const json& v = need(obj, key, path);
        if (!v.is_string() || v.get<std::string>().empty()) fail(path, "must be a non-empty string");
        return v.get<std::string>();
    }
    double number(const json& v, const std::string& path) const {
        if (!v.is_number()) fail(path, "must be a number, got " + v.dump());
        return v.get<double>();
    }
    const std::string& file() const { return file_; }

private:
    std::string file_;
};

const std::regex kName(R"(^[A-Za-z_][A-Za-z0-9_]*$)");

} // namespace

bool isSupportedDtype(const std::string& d) {
    return d == "float16" || d == "bfloat16" || d == "float32" || d == "int32" || d == "int8" || d == "int64";
}

const std::string& cxxTypeOf(const std::string& dtype) {
    static const std::map<std::string, std::string> types = {
        {"float16", "half"}, {"bfloat16", "bfloat16_t"}, {"float32", "float"}, {"int32", "int32_t"},
        {"int64", "int64_t"}, {"int8", "int8_t"},        {"int16", "int16_t"}, {"uint8", "uint8_t"}};
    return types.at(dtype);
}

Tolerance defaultTolerance(const std::string& dtype) {
    if (dtype == "float32") return {1e-4, 1e-4};
    if (dtype == "float16" || dtype == "bfloat16") return {1e-2, 1e-2};
    return {0, 0};  // integers must match exactly
}

namespace {
Task loadTaskFolder(const std::string& dirPath);
}

Task Task::loadDirectory(const std::string& dirPath) {
    // Every field is type-checked with a message naming it; this is the net under those checks,
    // so that no JSON library message escapes without the file it came from.
    try {
        return loadTaskFolder(dirPath);
    } catch (const nlohmann::json::exception& e) {
        throw TaskError((fs::path(dirPath) / "task.json").string() + ": a field has the wrong type (" + e.what() +
                        "); see docs/tasks.md for the format");
    }
}

namespace {
// The pieces of loadTaskFolder, in the order it checks them (the first problem found is the one
// reported, so that order is part of the behaviour).
void readTensors(const Fields& f, const json& j, const char* key, std::vector<TensorDecl>& out,
                 std::set<std::string>& names) {
    const json& arr = f.need(j, key, key);
    if (!arr.is_array() || arr.empty()) f.fail(key, "must be a non-empty array of tensors");
    for (size_t i = 0; i < arr.size(); ++i) {
        std::string p = std::string(key) + "[" + std::to_string(i) + "]";
        TensorDecl d;
        d.name = f.text(arr[i], "name", p + ".name");
        if (!std::regex_match(d.name, kName)) f.fail(p + ".name", "must be an identifier");
        if (!names.insert(d.name).second) f.fail(p + ".name", "'" + d.name + "' is used twice");
        d.dtype = f.text(arr[i], "dtype", p + ".dtype");
        if (!isSupportedDtype(d.dtype))
            f.fail(p + ".dtype", "'" + d.dtype + "' is not one of float16, bfloat16, float32, int32, int8, int64");
        const json& shape = f.need(arr[i], "shape", p + ".shape");
        if (!shape.is_array() || shape.empty()) f.fail(p + ".shape", "must be a non-empty array");
        for (const auto& s : shape) {
            if (s.is_number_integer() && s.get<int64_t>() > 0) d.shape.push_back(std::to_string(s.get<int64_t>()));
            else if (s.is_string() && !s.get<std::string>().empty()) d.shape.push_back(s.get<std::string>());
            else f.fail(p + ".shape", "entries must be positive integers or symbol names, got " + s.dump());
        }
        if (arr[i].contains("verify")) {
            if (std::string(key) != "outputs" || !arr[i]["verify"].is_boolean())
                f.fail(p + ".verify", "only an output may say \"verify\", and only true or false (false: an output the op "
                                      "leaves undefined for these inputs, never compared)");
            d.verified = arr[i]["verify"].get<bool>();
        }
        out.push_back(d);
    }
}

void readCases(const Fields& f, const json& j, Task& t) {
    const json& cases = f.need(j, "cases", "cases");
    if (!cases.is_array() || cases.empty()) f.fail("cases", "must be a non-empty array");
    bool anyPerf = false;
    for (size_t i = 0; i < cases.size(); ++i) {
        std::string p = "cases[" + std::to_string(i) + "]";
        TaskCase c;
        c.name = f.text(cases[i], "name", p + ".name");
        const json& dims = f.need(cases[i], "dims", p + ".dims");
        if (!dims.is_object()) f.fail(p + ".dims", "must be an object of symbol -> integer");
        for (auto& [k, v] : dims.items()) {
            if (!v.is_number_integer() || v.get<int64_t>() <= 0) f.fail(p + ".dims." + k, "must be a positive integer");
            c.dims[k] = v.get<int64_t>();
        }
        if (cases[i].contains("perf")) {
            if (!cases[i]["perf"].is_boolean()) f.fail(p + ".perf", "must be true or false, got " + cases[i]["perf"].dump());
            c.perf = cases[i]["perf"].get<bool>();
        }
        anyPerf |= c.perf;
        t.cases.push_back(c);
    }
    if (!anyPerf) f.fail("cases", "at least one case must be marked \"perf\": true");
}

// Every shape must evaluate in every case, to a tensor of at most kMaxTensorElements elements
// (larger ones would overflow the element count or exhaust memory in the reference).
void checkShapesFit(const Fields& f, const Task& t) {
    for (const auto& c : t.cases)
        for (const auto* list : {&t.inputs, &t.outputs})
            for (const auto& d : *list) {
                std::vector<int64_t> shape;
                try {
                    shape = t.shapeOf(d, c);
                } catch (const std::exception& e) {
                    f.fail("cases." + c.name, std::string("shape of '") + d.name + "': " + e.what());
                }
                int64_t n = 1;
                for (int64_t v : shape) {
                    if (v > kMaxTensorElements || n > kMaxTensorElements / v)
                        f.fail("cases." + c.name, "tensor '" + d.name + "' would have more than 2^31 elements; use smaller dims");
                    n *= v;
                }
            }
}

void readInit(const Fields& f, const json& j, Task& t) {
    if (!j["init"].is_object()) f.fail("init", "must be an object keyed by input name");
    for (auto& [k, v] : j["init"].items()) {
        std::string p = "init." + k;
        bool known = std::any_of(t.inputs.begin(), t.inputs.end(), [&name = k](const TensorDecl& d) { return d.name == name; });  // clang < 16 cannot capture a binding
        if (!known) f.fail(p, "'" + k + "' is not an input");
        InitSpec s;
        if (!v.is_object()) f.fail(p, "must be an object such as {\"dist\": \"uniform\", \"low\": -1, \"high\": 1}");
        if (v.contains("dist") && !v["dist"].is_string()) f.fail(p + ".dist", "must be a string");
        s.dist = v.value("dist", "uniform");
        if (s.dist != "uniform" && s.dist != "normal" && s.dist != "randint" && s.dist != "constant")
            f.fail(p + ".dist", "must be uniform, normal, randint or constant");
        if (s.dist == "normal") {
            s.low = v.contains("mean") ? f.number(v["mean"], p + ".mean") : 0.0;
            s.high = v.contains("std") ? f.number(v["std"], p + ".std") : 1.0;
        } else if (s.dist == "constant") {
            s.value = f.number(f.need(v, "value", p + ".value"), p + ".value");
        } else {
            s.low = f.number(f.need(v, "low", p + ".low"), p + ".low");
            s.high = f.number(f.need(v, "high", p + ".high"), p + ".high");
            if (s.high < s.low) f.fail(p, "high must be >= low");
        }
        t.init[k] = s;
    }
}

void readCompute(const Fields& f, const json& j, Task& t) {
    ComputeSpec::Names n;
    for (const auto& d : t.inputs) n.inputs.push_back(d.name);
    for (const auto& d : t.outputs) n.outputs.push_back(d.name);
    for (const auto& [k, v] : t.attrs) n.attrs.push_back(k);
    for (const auto* list : {&t.inputs, &t.outputs})
        for (const auto& d : *list)
            for (const auto& s : d.shape)
                if (!s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
                    std::all_of(s.begin(), s.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }))
                    n.dims.push_back(s);
    try {
        t.compute = ComputeSpec::parse(j["compute"], n);
    } catch (const std::invalid_argument& e) {
        throw TaskError(f.file() + ": " + e.what());
    }
}

void readTolerance(const Fields& f, const json& j, Task& t) {
    const json& tol = j["tolerance"];
    // Keyed by data type: {"int8": {"atol": 1, "rtol": 0}, ...}.
    if (tol.is_object() && !tol.empty() && !tol.contains("atol") && !tol.contains("rtol")) {
        for (auto& [dtype, v] : tol.items()) {
            const std::string p = "tolerance." + dtype;
            if (!isSupportedDtype(dtype))
                f.fail(p, "'" + dtype + "' is not a data type (float16, bfloat16, float32, int32, int8, int64): give "
                          "{\"atol\": .., \"rtol\": ..} for all outputs, or one such object per data type");
            if (!v.is_object()) f.fail(p, "must be an object {\"atol\": .., \"rtol\": ..}");
            Tolerance x;
            x.atol = f.number(f.need(v, "atol", p + ".atol"), p + ".atol");
            x.rtol = f.number(f.need(v, "rtol", p + ".rtol"), p + ".rtol");
            if (x.atol < 0 || x.rtol < 0) f.fail(p, "atol and rtol must be >= 0");
            t.dtypeTolerance[dtype] = x;
        }
        return;
    }
    Tolerance x;
    x.atol = f.number(f.need(tol, "atol", "tolerance.atol"), "tolerance.atol");
    x.rtol = f.number(f.need(tol, "rtol", "tolerance.rtol"), "tolerance.rtol");
    if (x.atol < 0 || x.rtol < 0) f.fail("tolerance", "atol and rtol must be >= 0");
    t.tolerance = x;
}

void readSeeds(const Fields& f, const json& j, Task& t) {
    if (!j["seeds"].is_array() || j["seeds"].size() < 1) f.fail("seeds", "must be a non-empty array of integers");
    for (const auto& s : j["seeds"])
        if (!s.is_number_unsigned()) f.fail("seeds", "entries must be non-negative integers, got " + s.dump());
    t.seeds = j["seeds"].get<std::vector<uint64_t>>();
}

void readLaunchTiling(const Fields& f, const json& l, Task& t) {
    const json& tl = l["tiling"];
    if (!tl.is_object()) f.fail("launch.tiling", "must be an object with \"struct\" and \"fields\"");
    if (tl.contains("struct") && !tl["struct"].is_string()) f.fail("launch.tiling.struct", "must be a string");
    t.tilingStruct = tl.value("struct", "TilingData");
    if (!f.need(tl, "fields", "launch.tiling.fields").is_array())
        f.fail("launch.tiling.fields", "must be an array of {name, type, value}");
    for (const auto& fld : tl["fields"]) {
        std::string n = f.text(fld, "name", "launch.tiling.fields.name");
        std::string type = f.text(fld, "type", "launch.tiling.fields." + n + ".type");
        const json& v = f.need(fld, "value", "launch.tiling.fields." + n + ".value");
        t.launch.tiling.emplace_back(type, v.is_string() ? v.get<std::string>() : v.dump());
        t.launch.tilingNames.push_back(n);
    }
}

void readLaunch(const Fields& f, const json& j, const std::set<std::string>& tensorNames, Task& t) {
    const json& l = j["launch"];
    if (!l.is_object()) f.fail("launch", "must be an object with entry, args and block_dim");
    t.launch.present = true;
    t.launch.entry = f.text(l, "entry", "launch.entry");
    const json& args = f.need(l, "args", "launch.args");
    if (!args.is_array()) f.fail("launch.args", "must be an array of tensor names, \"workspace\" or \"tiling\"");
    for (const auto& a : args) {
        std::string s = a.is_string() ? a.get<std::string>() : "";
        bool ok = s == "workspace" || s == "tiling" || tensorNames.count(s);
        if (!ok) f.fail("launch.args", "unknown argument " + a.dump() + " (tensor names, \"workspace\", \"tiling\")");
        t.launch.args.push_back(s);
    }
    const json& bd = f.need(l, "block_dim", "launch.block_dim");
    t.launch.blockDim = bd.is_string() ? bd.get<std::string>() : bd.dump();
    if (l.contains("tiling_key") && !l["tiling_key"].is_number_unsigned())
        f.fail("launch.tiling_key", "must be a non-negative integer, got " + l["tiling_key"].dump());
    t.launch.tilingKey = l.value("tiling_key", uint64_t(0));
    if (l.contains("tiling")) readLaunchTiling(f, l, t);
}

Task loadTaskFolder(const std::string& dirPath) {
    const fs::path dir(dirPath);
    const std::string file = (dir / "task.json").string();
    Task t;
    t.dir = dirPath;
    if (!fs::exists(file)) throw TaskError(file + ": missing (every task folder needs a task.json)");
    t.taskJsonText = toolchain::readTextFile(file);
    json j;
    try {
        j = sage_json::parse(t.taskJsonText, "task.json");
    } catch (const std::exception& e) {  // invalid, or nested too deep (sage_json::TooDeep)
        throw TaskError(file + ": not valid JSON: " + e.what());
    }
    Fields f(file);
    if (!j.is_object()) f.fail("(top level)", "must be a JSON object");
    t.name = f.text(j, "name", "name");
    if (!std::regex_match(t.name, kName)) f.fail("name", "must be an identifier (letters, digits, _)");
    t.category = f.text(j, "category", "category");
    t.description = f.text(j, "description", "description");
    t.split = f.text(j, "split", "split");
    if (t.split != "train" && t.split != "test") f.fail("split", "must be \"train\" or \"test\"");

    std::set<std::string> tensorNames;  // inputs and outputs share one namespace
    readTensors(f, j, "inputs", t.inputs, tensorNames);
    readTensors(f, j, "outputs", t.outputs, tensorNames);
    if (j.contains("attrs")) {
        if (!j["attrs"].is_object()) f.fail("attrs", "must be an object of named numbers");
        for (auto& [k, v] : j["attrs"].items()) t.attrs[k] = f.number(v, "attrs." + k);
    }
    readCases(f, j, t);
    checkShapesFit(f, t);
    if (j.contains("init")) readInit(f, j, t);
    if (j.contains("compute")) readCompute(f, j, t);
    if (j.contains("compute_gap")) {
        t.computeGap = f.text(j, "compute_gap", "compute_gap");
        if (t.compute.present)
            f.fail("compute_gap", "a task with a \"compute\" spec has no gap: remove one of the two");
    }
    if (j.contains("tolerance")) readTolerance(f, j, t);
    if (j.contains("seeds")) readSeeds(f, j, t);
    if (j.contains("launch")) readLaunch(f, j, tensorNames, t);

    t.referenceSource = toolchain::readTextFile((dir / "reference.cpp").string());
    if (t.referenceSource.empty()) throw TaskError((dir / "reference.cpp").string() + ": missing or empty");
    // baseline.cpp is a comparison point only: a task without one is drafted from its compute spec.
    if (fs::exists(dir / "baseline.cpp")) t.baselineSource = toolchain::readTextFile((dir / "baseline.cpp").string());
    if (fs::exists(dir / "tuned.cpp")) t.tunedSource = toolchain::readTextFile((dir / "tuned.cpp").string());
    return t;
}
} // namespace

const TaskCase& Task::perfCase() const {
    for (const auto& c : cases)
        if (c.perf) return c;
    return cases.front();
}

const TaskCase* Task::findCase(const std::string& n) const {
    for (const auto& c : cases)
        if (c.name == n) return &c;
    return nullptr;
}

Tolerance Task::toleranceFor(const std::string& dtype) const {
    if (auto it = dtypeTolerance.find(dtype); it != dtypeTolerance.end()) return it->second;
    return tolerance ? *tolerance : defaultTolerance(dtype);
}

std::vector<int64_t> Task::shapeOf(const TensorDecl& d, const TaskCase& c) const {
    std::vector<int64_t> out;
    for (const auto& s : d.shape) {
        double v = toolchain::evaluate(s, [&](const std::string& n) -> std::optional<double> {
            auto it = c.dims.find(n);
            if (it != c.dims.end()) return double(it->second);
            auto a = attrs.find(n);
            if (a != attrs.end()) return a->second;
            return std::nullopt;
        });
        if (!(v >= 1)) throw toolchain::ExpressionError("dimension '" + s + "' is " + std::to_string(v));
        if (v > double(kMaxTensorElements))
            throw toolchain::ExpressionError("dimension '" + s + "' is " + std::to_string(v) + ", more than 2^31");
        out.push_back(int64_t(v));
    }
    return out;
}

std::vector<toolchain::TensorSpec> Task::tensorsFor(const TaskCase& c) const {
    std::vector<toolchain::TensorSpec> out;
    for (const auto& d : inputs) out.push_back({d.name, d.dtype, shapeOf(d, c), false, ""});
    for (const auto& d : outputs) out.push_back({d.name, d.dtype, shapeOf(d, c), true, ""});
    return out;
}

std::string Task::preludeFor(const std::string& source) const {
    std::string p = "// Generated by sage for task '" + name + "'.\n";
    for (const auto* list : {&inputs, &outputs})
        for (const auto& d : *list) {
            std::string up = d.name;
            std::transform(up.begin(), up.end(), up.begin(), ::toupper);
            p += "#define DTYPE_" + up + " " + cxxTypeOf(d.dtype) + "\n";
        }
    static const std::regex defined(R"(BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
    std::smatch m;
    if (std::regex_search(source, m, defined)) {
        p += "#define SAGE_TILING_TYPE " + m[1].str() + "\n";
    } else if (!tilingStruct.empty()) {
        p += "#define SAGE_TILING_TYPE " + tilingStruct + "\n";
        std::regex own("struct\\s+" + tilingStruct + "\\b");
        if (!std::regex_search(source, own)) {
            p += "#include <cstdint>\nstruct " + tilingStruct + " {\n";
            for (size_t i = 0; i < launch.tiling.size(); ++i)
                p += "    " + launch.tiling[i].first + " " + launch.tilingNames[i] + ";\n";
            p += "};\n";
        }
    }
    return p;
}

namespace {
// A folder in CANN Bench's layout (an operator folder, levelN/ or tasks/ of a checkout) holding no
// task of ours: its operators are the tasks. Returns false for any other folder.
bool loadBenchOperators(const std::string& dir, TaskSet& set) {
    if (!cannbench::holdsOperators(dir)) return false;
    for (const auto& f : cannbench::operatorFoldersUnder(dir)) try {
            auto op = std::make_shared<cannbench::Operator>(cannbench::loadOperator(f));
            if (set.find(op->folder)) {
                set.errors.push_back(f + ": task name '" + op->folder + "' is already used by another folder");
                continue;
            }
            set.tasks.push_back(cannbench::toTask(std::move(op)));
        } catch (const std::exception& e) {
            set.errors.push_back(e.what());
        }
    return true;
}
} // namespace

TaskSet TaskSet::load(const std::vector<std::string>& dirs) {
    TaskSet set;
    for (const auto& d : dirs) {
        std::error_code ec;
        if (!fs::is_directory(d, ec)) {
            set.errors.push_back(d + ": task directory not found");
            continue;
        }
        if (loadBenchOperators(d, set)) continue;
        std::vector<fs::path> folders;
        for (const auto& e : fs::directory_iterator(d))
            if (e.is_directory()) folders.push_back(e.path());
        std::sort(folders.begin(), folders.end());
        for (const auto& f : folders) try {
                Task t = Task::loadDirectory(f.string());
                if (set.find(t.name)) {
                    set.errors.push_back(f.string() + ": task name '" + t.name + "' is already used by another folder");
                    continue;
                }
                set.tasks.push_back(std::move(t));
            } catch (const std::exception& e) {
                set.errors.push_back(e.what());
            }
    }
    std::sort(set.tasks.begin(), set.tasks.end(), [](const Task& a, const Task& b) { return a.name < b.name; });
    return set;
}

const Task* TaskSet::find(const std::string& n) const {
    for (const auto& t : tasks)
        if (t.name == n) return &t;
    return nullptr;
}

} // namespace sage::eval

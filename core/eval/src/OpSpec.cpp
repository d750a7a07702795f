// Opening an op project and reading the spec that makes it a task (docs/tasks.md "Op specs").
#include "sage_eval/OpProject.h"

#include "OpDependencies.h"
#include "sage_eval/CompatScan.h"
#include "sage_json/BoundedJson.h"
#include "sage_toolchain/Files.h"

#include <algorithm>
#include <filesystem>
#include <regex>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// aclnn_*.cpp and the level-0 wrappers next to them adapt the op to the aclnn runtime; they are
// not part of its tiling and need the CANN runtime headers, so they stay out of the host program.
bool isAclnnLayer(const fs::path& p) {
    if (p.filename().string().rfind("aclnn", 0) == 0) return true;
    static const std::regex runtime(R"re(#\s*include\s*["<](opdev/|aclnn/|level0/|level2/))re");
    return std::regex_search(toolchain::readTextFile(p.string()), runtime);
}
// CANN's op repositories name the file that registers an op's graph-mode shape and data-type
// inference (IMPL_OP_INFERSHAPE) <op>_infershape.cpp (1037 files in ops-nn, a few with a suffix:
// _infershape_arch35.cpp); nothing else in op_host/ carries the word.
bool isShapeInferenceSource(const std::string& path) {
    return fs::path(path).filename().string().find("_infershape") != std::string::npos;
}
} // namespace

OpProject OpProject::open(const std::string& dirPath) {
    OpProject p;
    std::error_code ec;
    const fs::path dir = fs::path(dirPath).lexically_normal();
    if (!fs::is_directory(dir, ec))
        throw OpProjectError(dirPath + ": not a directory: pass the op directory that holds op_host/ and op_kernel/");
    p.dir = dir.string();
    p.name = (dir.filename().empty() ? dir.parent_path() : dir).filename().string();
    const fs::path host = dir / "op_host", kernel = dir / "op_kernel";
    // The host sources of a folder (op_host/ itself, or one of its arch folders), sorted.
    auto hostSourcesIn = [&ec](const fs::path& folder) {
        std::vector<std::string> list;
        for (const auto& e : fs::directory_iterator(folder, ec))
            if ((e.path().extension() == ".cpp" || e.path().extension() == ".cc") && !isAclnnLayer(e.path()))
                list.push_back(e.path().string());
        std::sort(list.begin(), list.end());
        return list;
    };
    if (fs::is_directory(host, ec)) {
        // Shape inference sources stay out of the host program (OpProject::shapeInferenceSources).
        auto tilingSources = [&](std::vector<std::string> list) {
            std::erase_if(list, [&](const std::string& s) {
                if (!isShapeInferenceSource(s)) return false;
                p.shapeInferenceSources.push_back(s);
                return true;
            });
            return list;
        };
        p.hostSources = tilingSources(hostSourcesIn(host));
        for (const auto& d : fs::directory_iterator(host, ec))
            if (d.is_directory(ec) && isArchFolder(d.path().filename().string()))
                p.archHostSources[d.path().filename().string()] = tilingSources(hostSourcesIn(d.path()));
    }
    if (p.hostSources.empty())
        throw OpProjectError((host / "").string() + ": no host source (op_host/<op>.cpp with the op definition and its "
                             "TilingFunc): sage op runs the op's own host tiling, so the project needs one");
    // The host code of the ops this one depends on joins the program after its own (OpDependencies.h).
    for (const auto& dep : hostDependenciesOf(dir)) {
        p.dependencyDirs.push_back(dep.string());
        for (const auto& s : hostSourcesIn(dep / "op_host"))
            if (!isShapeInferenceSource(s)) p.hostSources.push_back(s);
        for (const auto& d : fs::directory_iterator(dep / "op_host", ec))
            if (d.is_directory(ec) && isArchFolder(d.path().filename().string()))
                for (const auto& s : hostSourcesIn(d.path()))
                    if (!isShapeInferenceSource(s)) p.archHostSources[d.path().filename().string()].push_back(s);
    }
    std::vector<fs::path> kernels;
    if (fs::is_directory(kernel, ec))
        for (const auto& e : fs::directory_iterator(kernel, ec))
            if (e.path().extension() == ".cpp") kernels.push_back(e.path());
    std::sort(kernels.begin(), kernels.end());
    for (const auto& k : kernels)
        if (k.stem() == p.name) p.kernelFile = k.string();
    if (p.kernelFile.empty() && kernels.size() == 1) p.kernelFile = kernels[0].string();
    if (p.kernelFile.empty())
        throw OpProjectError((kernel / (p.name + ".cpp")).string() + ": " +
                             (kernels.empty() ? "no kernel source in op_kernel/"
                                              : "not found, and op_kernel/ holds several .cpp files") +
                             ": sage op launches op_kernel/<op>.cpp, named like the op directory");
    return p;
}

OpSpec OpSpec::loadDirectory(const std::string& dir) {
    OpSpec s;
    s.task = Task::loadDirectory(dir);  // name, tensors, cases, init, tolerance, reference.cpp
    const std::string file = (fs::path(dir) / "task.json").string();
    json j = sage_json::parse(s.task.taskJsonText, "task.json");
    auto fail = [&](const std::string& field, const std::string& what) {
        throw OpProjectError(file + ": field '" + field + "': " + what);
    };
    if (j.contains("op")) {
        if (!j["op"].is_string()) fail("op", "must be the op type as OP_ADD names it, e.g. \"Abs\"");
        s.op = j["op"].get<std::string>();
    }
    json hostAttrs = j.value("host_attrs", json::object());
    if (!hostAttrs.is_object()) fail("host_attrs", "must be an object of attribute values");
    OpConfig first;
    first.name = "declared";
    for (const auto* list : {&s.task.inputs, &s.task.outputs})
        for (const auto& t : *list) first.dtypes[t.name] = t.dtype;
    for (const auto& [k, v] : s.task.attrs) first.attrs[k] = v;
    for (auto& [k, v] : hostAttrs.items()) first.attrs[k] = v;
    if (!j.contains("configs")) {
        s.configs.push_back(first);
        return s;
    }
    const json& cfgs = j["configs"];
    if (!cfgs.is_array() || cfgs.empty()) fail("configs", "must be a non-empty array of {name, dtypes, attrs}");
    for (size_t i = 0; i < cfgs.size(); ++i) {
        const std::string at = "configs[" + std::to_string(i) + "]";
        const json& c = cfgs[i];
        if (!c.is_object()) fail(at, "must be an object {name, dtypes, attrs}");
        OpConfig cfg = first;
        cfg.name = c.value("name", "config" + std::to_string(i));
        const json dtypes = c.value("dtypes", json::object()), attrs = c.value("attrs", json::object());
        if (!dtypes.is_object()) fail(at + ".dtypes", "must be an object {tensor name: dtype}");
        if (!attrs.is_object()) fail(at + ".attrs", "must be an object {attribute name: value}");
        for (auto& [k, v] : dtypes.items()) {
            if (!cfg.dtypes.count(k))
                fail(at + ".dtypes." + k, "names no input or output of the spec (declare it in \"inputs\"/\"outputs\")");
            if (!v.is_string() || !isSupportedDtype(v.get<std::string>()))
                fail(at + ".dtypes." + k, v.dump() + " is not one of float16, bfloat16, float32, int32, int8, int64");
            cfg.dtypes[k] = v.get<std::string>();
        }
        for (auto& [k, v] : attrs.items()) cfg.attrs[k] = v;
        s.configs.push_back(std::move(cfg));
    }
    return s;
}

std::string findOpSpec(const std::string& root, const std::string& projectDir) {
    const fs::path project = fs::path(projectDir).lexically_normal();
    const fs::path op = project.filename().empty() ? project.parent_path() : project;
    std::error_code ec;
    for (const fs::path& candidate : {fs::path(root) / op.parent_path().filename() / op.filename(), fs::path(root) / op.filename()})
        if (fs::exists(candidate / "task.json", ec)) return candidate.string();
    return "";
}

std::string ownOpSpecDir(const std::string& projectDir) { return (fs::path(projectDir) / "sage-spec").string(); }

std::string opSpecTemplate(const json& def, const std::string& opName) {
    json t = {{"name", opName},
              {"category", "op"},
              {"description", "Spec for op " + def.value("type", opName) + ": edit the shapes, cases and reference."},
              {"split", "test"},
              {"op", def.value("type", "")}};
    auto tensors = [](const json& list) {
        json out = json::array();
        for (const auto& p : list) {
            std::string dtype = "float32";
            for (const auto& d : p.value("dtypes", json::array()))
                if (isSupportedDtype(d.get<std::string>())) {
                    dtype = d.get<std::string>();
                    break;
                }
            out.push_back({{"name", p.value("name", "")}, {"dtype", dtype}, {"shape", {"N"}}});
        }
        return out;
    };
    t["inputs"] = tensors(def.value("inputs", json::array()));
    t["outputs"] = tensors(def.value("outputs", json::array()));
    json attrs = json::object(), hostAttrs = json::object();
    for (const auto& a : def.value("attrs", json::array())) {
        const std::string type = a.value("type", "int"), value = a.value("default", "");
        if (type == "int" || type == "float" || type == "bool") attrs[a.value("name", "")] = value.empty() ? 0.0 : std::stod(value);
        else hostAttrs[a.value("name", "")] = value;
    }
    if (!attrs.empty()) t["attrs"] = attrs;
    if (!hostAttrs.empty()) t["host_attrs"] = hostAttrs;
    t["cases"] = json::array({{{"name", "small"}, {"dims", {{"N", 4096}}}},
                              {{"name", "tail"}, {"dims", {{"N", 40000 + 3}}}, {"perf", true}}});
    return t.dump(2) + "\n";
}

std::string opReferenceTemplate(const json& def) {
    std::string s = "// Reference for op " + def.value("type", std::string("?")) +
                    ": compute every output in double from the inputs (docs/tasks.md).\n"
                    "#include \"sage_reference.h\"\n\nSAGE_REFERENCE(ctx) {\n";
    for (const auto& p : def.value("inputs", json::array()))
        s += "    auto " + p.value("name", std::string("in")) + " = ctx.in(\"" + p.value("name", std::string()) + "\");\n";
    for (const auto& p : def.value("outputs", json::array()))
        s += "    auto " + p.value("name", std::string("out")) + " = ctx.out(\"" + p.value("name", std::string()) + "\");\n";
    s += "    // TODO: write the outputs, e.g. for (size_t i = 0; i < y.size(); ++i) y[i] = x[i];\n}\n";
    return s;
}

} // namespace sage::eval

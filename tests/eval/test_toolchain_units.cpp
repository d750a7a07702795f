// Bad input is refused with the file, the field and what is wrong: device profiles, task
// folders, launch expressions, kernel sources; compiler diagnostics map to the candidate.
#include "sage_eval/Evaluation.h"
#include "sage_eval/RunCache.h"
#include "sage_eval/Task.h"
#include "sage_eval/Verifier.h"
#include "sage_toolchain/CacheTrim.h"
#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/Expression.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/SourcePolicy.h"
#include "sage_toolchain/ToolPaths.h"

#include <QtTest>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <nlohmann/json.hpp>

using namespace sage;
using nlohmann::json;

class TestToolchainUnits : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    json goodProfile_;

    std::string write(const std::string& name, const std::string& text) {
        std::string path = (dir_.path() + "/" + QString::fromStdString(name)).toStdString();
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        std::ofstream(path) << text;
        return path;
    }
    std::string profileError(const std::function<void(json&)>& edit) {
        json p = goodProfile_;
        edit(p);
        std::string path = write("ascend910b1-sim.json", p.dump());
        try {
            toolchain::DeviceCatalog::loadFile(path);
        } catch (const toolchain::ProfileError& e) {
            return e.what();
        }
        return "";
    }
    std::string taskError(const std::function<void(json&)>& edit, bool withReference = true) {
        static int n = 0;
        std::string folder = "task" + std::to_string(++n);
        json t = json::parse(R"({"name":"t","category":"elementwise","description":"d","split":"train",
            "inputs":[{"name":"x","dtype":"float32","shape":["N"]}],"outputs":[{"name":"y","dtype":"float32","shape":["N"]}],
            "cases":[{"name":"p","dims":{"N":64},"perf":true}]})");
        edit(t);
        write(folder + "/task.json", t.dump());
        if (withReference) write(folder + "/reference.cpp", "// ref");
        write(folder + "/baseline.cpp", "// base");
        try {
            eval::Task::loadDirectory((dir_.path() + "/" + QString::fromStdString(folder)).toStdString());
        } catch (const eval::TaskError& e) {
            return e.what();
        }
        return "";
    }

private slots:
    void initTestCase() {
        auto paths = toolchain::ToolPaths::fromEnvironment();
        std::ifstream in(paths.devicesDir() + "/ascend910b1-sim.json");
        goodProfile_ = json::parse(in);
    }

    void shippedProfilesLoad() {
        auto c = toolchain::DeviceCatalog::loadDirectory(toolchain::ToolPaths::fromEnvironment().devicesDir());
        QVERIFY(c.profiles().size() >= 2);
        const auto& b = c.get("ascend910b1-sim");
        QCOMPARE(b.vectorCores, 48);
        QVERIFY(std::abs(b.gmToUbBytesPerCycle - 220.1 / 1.85) < 1e-6);
        QVERIFY(!c.get("ascend310p3-sim").dataCopyPad);
        QCOMPARE(b.l2Bytes, uint64_t(0));  // no "l2" object: no L2 model
        const auto& b2 = c.get("ascend910b2-sim");
        QCOMPARE(b2.l2Bytes, uint64_t(192) << 20);
        QVERIFY(b2.l2BytesPerCycle > b2.chipGmBytesPerCycle);
        try {
            c.get("nope");
            QFAIL("unknown device accepted");
        } catch (const toolchain::ProfileError& e) {
            QVERIFY(std::string(e.what()).find("ascend910b1-sim") != std::string::npos);  // lists the known ids
        }
    }
    void badProfilesNameFileFieldAndReason() {
        std::string e = profileError([](json& p) { p["bandwidth"].erase("gm_to_ub_gbps"); });
        QVERIFY2(e.find("ascend910b1-sim.json") != std::string::npos && e.find("'bandwidth.gm_to_ub_gbps'") != std::string::npos &&
                     e.find("missing") != std::string::npos, e.c_str());
        e = profileError([](json& p) { p["cores"]["vector"] = 0; });
        QVERIFY2(e.find("'cores.vector'") != std::string::npos && e.find("out of range") != std::string::npos, e.c_str());
        e = profileError([](json& p) { p["clock_mhz"] = "fast"; });
        QVERIFY2(e.find("'clock_mhz'") != std::string::npos && e.find("must be a number") != std::string::npos, e.c_str());
        e = profileError([](json& p) { p["memory_bytes"]["ub_usable"] = 999999; });
        QVERIFY2(e.find("'memory_bytes.ub_usable'") != std::string::npos, e.c_str());
        e = profileError([](json& p) { p["cores"]["layout"] = "fused"; });
        QVERIFY2(e.find("split") != std::string::npos, e.c_str());
        e = profileError([](json& p) { p["l2"] = {{"bytes", 201326592}, {"chip_tbps", 2.4}}; });
        QVERIFY2(e.find("'l2.read_latency_cycles'") != std::string::npos && e.find("missing") != std::string::npos, e.c_str());
        e = profileError([](json& p) {
            p["l2"] = {{"bytes", 201326592}, {"chip_tbps", -1}, {"read_latency_cycles", 50}, {"write_latency_cycles", 50}};
        });
        QVERIFY2(e.find("'l2.chip_tbps'") != std::string::npos && e.find("out of range") != std::string::npos, e.c_str());
        e = profileError([](json& p) { p["id"] = "other"; });
        QVERIFY2(e.find("must match the file name") != std::string::npos, e.c_str());
        std::string path = write("broken.json", "{ not json");
        try {
            toolchain::DeviceCatalog::loadFile(path);
            QFAIL("broken JSON accepted");
        } catch (const toolchain::ProfileError& ex) {
            QVERIFY(std::string(ex.what()).find("not valid JSON") != std::string::npos);
        }
    }
    void badTasksNameFileFieldAndReason() {
        QCOMPARE(taskError([](json&) {}), std::string());
        std::string e = taskError([](json& t) { t["inputs"][0]["dtype"] = "float64"; });
        QVERIFY2(e.find("task.json") != std::string::npos && e.find("'inputs[0].dtype'") != std::string::npos, e.c_str());
        e = taskError([](json& t) { t["cases"][0]["perf"] = false; });
        QVERIFY2(e.find("'cases'") != std::string::npos && e.find("perf") != std::string::npos, e.c_str());
        e = taskError([](json& t) { t["outputs"][0]["shape"] = json::array({"M"}); });
        QVERIFY2(e.find("unknown name 'M'") != std::string::npos, e.c_str());
        e = taskError([](json& t) { t["split"] = "dev"; });
        QVERIFY2(e.find("'split'") != std::string::npos, e.c_str());
        e = taskError([](json& t) { t["init"] = {{"z", {{"dist", "uniform"}, {"low", 0}, {"high", 1}}}}; });
        QVERIFY2(e.find("'init.z'") != std::string::npos && e.find("not an input") != std::string::npos, e.c_str());
        e = taskError([](json& t) { t["outputs"][0]["name"] = "x"; });
        QVERIFY2(e.find("used twice") != std::string::npos, e.c_str());
        e = taskError([](json& t) { t["launch"] = {{"entry", "k"}, {"args", {"x", "q"}}, {"block_dim", 1}}; });
        QVERIFY2(e.find("'launch.args'") != std::string::npos && e.find("\"q\"") != std::string::npos, e.c_str());
        e = taskError([](json&) {}, /*withReference=*/false);
        QVERIFY2(e.find("reference.cpp") != std::string::npos, e.c_str());
    }
    void taskSetSkipsBadFoldersAndKeepsGoodOnes() {
        auto set = eval::TaskSet::load({std::string(SAGE_TEST_DATA_DIR) + "/tasks", dir_.path().toStdString() + "/nowhere"});
        QVERIFY(set.find("vadd"));
        QVERIFY(!set.errors.empty());
    }
    void preludeDefinesDtypesAndTheTilingStruct() {
        auto set = eval::TaskSet::load({std::string(SAGE_TOOLCHAIN_TASKS_DIR)});
        const auto* add = set.find("add");
        QVERIFY(add);
        std::string p = add->preludeFor("extern \"C\" void f() {}");
        QVERIFY(p.find("#define DTYPE_X half") != std::string::npos);
        QVERIFY(p.find("struct AddTiling {") != std::string::npos);          // the file has no struct: generated
        QVERIFY(add->preludeFor("struct AddTiling { int a; };").find("struct AddTiling {") == std::string::npos);
    }
    void expressions() {
        auto look = [](const std::string& n) -> std::optional<double> {
            if (n == "N") return 1000.0;
            if (n == "cores") return 48.0;
            return std::nullopt;
        };
        QCOMPARE(toolchain::evaluate("N / 3", look), 333.0);  // integer division, as tiling code does
        QCOMPARE(toolchain::evaluate("ceil_div(N, 3)", look), 334.0);
        QCOMPARE(toolchain::evaluate("min(cores, ceil_div(N, 64))", look), 16.0);
        QCOMPARE(toolchain::evaluate("align(N, 128) - (N % 7)", look), 1024.0 - 6.0);
        for (const char* bad : {"N +", "M * 2", "N / 0", "max(1)", "(N", "frob(1,2)"}) {
            try {
                toolchain::evaluate(bad, look);
                QFAIL(bad);
            } catch (const toolchain::ExpressionError& e) {
                QVERIFY(std::string(e.what()).find(bad) != std::string::npos);  // names the expression
            }
        }
    }
    void sourcePolicyRejectsWithLinesAndIgnoresComments() {
        std::string src = "#include \"kernel_operator.h\"\n#include <cmath>\n// #include <fstream> in a comment\n"
                          "/* system(\"x\") */\nconst char* s = \"fopen(\";\n#include <thread>\nvoid f() { std::thread t; }\n"
                          "int g() { return system(\"ls\"); }\nvoid h() { asm(\"nop\"); }\n";
        auto d = toolchain::SourcePolicy::check(src, "k.cpp");
        std::vector<std::pair<std::string, int>> got;
        for (const auto& x : d) got.push_back({std::string(x.kind.name()), x.line});
        QVERIFY(std::find(got.begin(), got.end(), std::make_pair(std::string("rejected_include"), 6)) != got.end());
        QVERIFY(std::find(got.begin(), got.end(), std::make_pair(std::string("rejected_api"), 7)) != got.end());
        QVERIFY(std::find(got.begin(), got.end(), std::make_pair(std::string("rejected_api"), 8)) != got.end());
        QVERIFY(std::find(got.begin(), got.end(), std::make_pair(std::string("rejected_api"), 9)) != got.end());
        for (const auto& [kind, line] : got) QVERIFY2(line >= 6, "comments and strings must not be flagged");
        QVERIFY(toolchain::SourcePolicy::check("#include \"kernel_operator.h\"\nint x = 1;\n", "k.cpp").empty());
    }
    void gccJsonDiagnosticsMapToTheCandidate() {
        std::string j = R"([{"kind":"error","message":"boom","locations":[{"caret":{"file":"kernel.cpp","line":7,"column":3}}],
                             "children":[{"kind":"note","message":"see","locations":[{"caret":{"file":"/x/kernel_vec.h","line":9,"column":1}}]}]},
                            {"kind":"warning","message":"w","locations":[{"caret":{"file":"kernel.cpp","line":2,"column":1}}]}]
                           /usr/bin/ld: kernel.o: undefined reference to `foo()')";
        auto d = toolchain::parseGccJsonDiagnostics(j, "kernel.cpp", "mine.cpp");
        QCOMPARE(d.size(), size_t(3));
        QCOMPARE(d[0].file, std::string("mine.cpp"));
        QCOMPARE(d[0].line, 7);
        QCOMPARE(d[0].notes.at(0).file, std::string("kernel_vec.h"));
        QVERIFY(d[1].severity == toolchain::Severity::Warning);
        QVERIFY(d[2].kind == toolchain::DiagnosticKind::LinkError);
        auto sites = toolchain::instantiationSites("kernel.cpp:12:5:   required from here\nother.h:3:1:   required from here\n",
                                                   "kernel.cpp");
        QCOMPARE(sites.size(), size_t(1));
        QCOMPARE(sites[0].first, 12);
        QVERIFY(toolchain::parseGccJsonDiagnostics("garbage", "kernel.cpp", "k").empty());
    }

    // A compile of several translation units (an op's host sources) prints one JSON array per
    // unit: the errors of every unit are read, an empty unit's array and the linker text skipped.
    void gccJsonDiagnosticsOfSeveralUnitsAreAllRead() {
        const std::string j =
            R"([{"kind":"error","message":"first [unit]","locations":[{"caret":{"file":"kernel.cpp","line":3,"column":1}}]}])"
            "\n[]\n"
            R"([{"kind":"error","message":"second","locations":[{"caret":{"file":"/tree/op_host/b_tiling.cpp","line":8,"column":2}}]}])"
            "\n/usr/bin/ld: unit2.o: undefined reference to `helper()'\n";
        auto d = toolchain::parseGccJsonDiagnostics(j, "kernel.cpp", "op_host/a.cpp");
        QCOMPARE(d.size(), size_t(3));
        QCOMPARE(d[0].file, std::string("op_host/a.cpp"));
        QCOMPARE(d[0].message, std::string("first [unit]"));
        QCOMPARE(d[1].file, std::string("b_tiling.cpp"));
        QCOMPARE(d[1].line, 8);
        QVERIFY(d[2].kind == toolchain::DiagnosticKind::LinkError);
        // A broken array (cut off) yields what the intact ones hold, never a throw.
        auto partial = toolchain::parseGccJsonDiagnostics(j.substr(0, j.find("[{\"kind\":\"error\",\"message\":\"second")) + "[{\"kind\":", "kernel.cpp", "k");
        QCOMPARE(partial.size(), size_t(1));
    }

    // Run statuses keep the spelling earlier versions stored, so their evaluations, caches and
    // run databases load; a status no version wrote reads as error and keeps its text.
    void runStatusesReadTheStoredSpelling() {
        const std::vector<std::pair<std::string, toolchain::RunStatus>> stored = {
            {"not_run", toolchain::RunStatus::NotRun},       {"ok", toolchain::RunStatus::Ok},
            {"race", toolchain::RunStatus::Race},            {"sim_error", toolchain::RunStatus::SimError},
            {"error", toolchain::RunStatus::Error},          {"oom", toolchain::RunStatus::Oom},
            {"crash", toolchain::RunStatus::Crash},          {"timeout", toolchain::RunStatus::Timeout},
            {"cancelled", toolchain::RunStatus::Cancelled},  {"sandbox_violation", toolchain::RunStatus::SandboxViolation},
            {"unaccounted_output", toolchain::RunStatus::UnaccountedOutput},
            {"impossible_result", toolchain::RunStatus::ImpossibleResult},
            {"rejected", toolchain::RunStatus::Rejected},    {"compile_error", toolchain::RunStatus::CompileError},
            {"bad_input", toolchain::RunStatus::BadInput}};
        for (const auto& [text, status] : stored) {
            QVERIFY2(toolchain::parseRunStatus(text) == status, text.c_str());
            QCOMPARE(std::string(toString(status)), text);
        }
        QVERIFY(!toolchain::parseRunStatus("OK").has_value());
        QVERIFY(!toolchain::parseRunStatus("").has_value());
        std::string note;
        QVERIFY(toolchain::runStatusFrom("exploded", &note) == toolchain::RunStatus::Error);
        QVERIFY2(note.find("'exploded'") != std::string::npos, note.c_str());

        json j = {{"run", {{"status", "race"}, {"message", "two pipes"},
                           {"runs", {{{"case", "small"}, {"seed", 1}, {"status", "sim_error"}, {"message", "m"}}}}}}};
        auto ev = eval::Evaluation::fromJson(j);
        QVERIFY(ev.run.status == toolchain::RunStatus::Race);
        QVERIFY(ev.run.runs.at(0).status == toolchain::RunStatus::SimError);
        QCOMPARE(ev.toJson()["run"]["status"].get<std::string>(), std::string("race"));
        QCOMPARE(ev.toJson()["run"]["runs"][0]["status"].get<std::string>(), std::string("sim_error"));
        j["run"]["status"] = "melted";  // written by no version: an error, its text kept
        ev = eval::Evaluation::fromJson(j);
        QVERIFY(ev.run.status == toolchain::RunStatus::Error);
        QVERIFY2(ev.run.message.find("'melted'") != std::string::npos && ev.run.message.find("two pipes") != std::string::npos,
                 ev.run.message.c_str());
        QVERIFY(eval::Evaluation::fromJson(json::object()).run.status == toolchain::RunStatus::NotRun);
    }

    // Diagnostic kinds are typed; one this version does not know (from a newer simulator or an
    // imported evaluation) is kept by its text: shown, written back and compared unchanged.
    void diagnosticKindsKeepUnknownText() {
        using Kind = toolchain::DiagnosticKind;
        for (int c = Kind::CompileError; c <= Kind::WrongResult; ++c) {
            const Kind kind = Kind::Code(c);
            QVERIFY2(Kind::parse(kind.name()) == kind, std::string(kind.name()).c_str());
        }
        QVERIFY(Kind::parse("race_war").isRace());
        QVERIFY(!Kind::parse("deadlock").isRace());
        QVERIFY(Kind::parse("capacity_exceeded") == Kind::CapacityExceeded);
        toolchain::Diagnostic d;
        d.kind = Kind::parse("cube_overheated");
        d.message = "from a newer simulator";
        QVERIFY(d.kind == Kind::Other);
        QVERIFY(!(d.kind == Kind::parse("other_future_kind")));
        const auto back = toolchain::diagnosticFromJson(toolchain::toJson(d));
        QCOMPARE(std::string(back.kind.name()), std::string("cube_overheated"));
        QVERIFY(back.kind == d.kind);
        QCOMPARE(toolchain::toJson(toolchain::diagnosticFromJson(json{{"kind", "race_raw"}}))["kind"].get<std::string>(),
                 std::string("race_raw"));
        QCOMPARE(std::string(toolchain::diagnosticFromJson(json::object()).kind.name()), std::string());
    }

    // A stored run comes back with its status and output bytes; the cache stays within its
    // capacity (SAGE_RUN_CACHE_MB) up to the 16 stores between two evictions, oldest dropped first.
    void runCacheStoresLoadsAndEvicts() {
        const std::string root = (dir_.path() + "/runs").toStdString();
        const eval::RunCache cache(root);
        QVERIFY(!cache.load("missing").has_value());
        qputenv("SAGE_RUN_CACHE_MB", "1");
        toolchain::RunResult r;
        r.status = toolchain::RunStatus::Ok;
        r.message = "fine";
        const size_t entryBytes = 200 << 10;  // 5 entries fit in 1 MiB
        for (int i = 0; i < 40; ++i) {
            std::vector<uint8_t> bytes(entryBytes, uint8_t(i));
            std::string key = "k";
            key += std::to_string(i);
            cache.store(key, r, {{"y", toolchain::Blob::own(std::move(bytes))}}, true);
        }
        qunsetenv("SAGE_RUN_CACHE_MB");
        auto last = cache.load("k39");
        QVERIFY(last.has_value());
        QCOMPARE(std::string(toString(last->result.status)), std::string(toString(toolchain::RunStatus::Ok)));
        QCOMPARE(last->outputs.at("y").size(), entryBytes);
        QCOMPARE(int(last->outputs.at("y").data()[7]), 39);
        QVERIFY(last->networkIsolated);
        QVERIFY2(!cache.load("k0").has_value(), "the oldest entry was not evicted");
        size_t entries = 0, blobs = 0;
        for (const auto& e : std::filesystem::directory_iterator(root))
            entries += e.is_directory() && e.path().filename() != "blobs";
        for (const auto& e : std::filesystem::directory_iterator(root + "/blobs")) blobs += e.is_regular_file();
        QVERIFY2(entries <= 5 + 16, ("entries kept: " + std::to_string(entries)).c_str());
        QVERIFY2(blobs <= 5 + 16, ("outputs kept: " + std::to_string(blobs)).c_str());
        // Every entry still listed loads: none names an evicted output.
        for (const auto& e : std::filesystem::directory_iterator(root))
            if (e.is_directory() && e.path().filename() != "blobs")
                QVERIFY2(cache.load(e.path().filename().string()).has_value(), e.path().c_str());
    }

    // Outputs are stored once per content: two entries (other candidates, same values) share one
    // file; an entry whose output was removed, or one in another layout, is a miss (run again).
    void runCacheStoresEqualOutputsOnce() {
        namespace fs = std::filesystem;
        const fs::path root = (dir_.path() + "/sharedruns").toStdString();
        const eval::RunCache cache(root.string());
        toolchain::RunResult r;
        r.status = toolchain::RunStatus::Ok;
        std::vector<uint8_t> same(50000, 0x42), other(50000, 0x43);
        cache.store("a", r, {{"y", toolchain::Blob::own(same)}, {"z", toolchain::Blob::own(other)}}, true);
        cache.store("b", r, {{"y", toolchain::Blob::own(same)}}, true);
        size_t files = 0;
        for (const auto& e : fs::directory_iterator(root / "blobs")) files += e.is_regular_file();
        QCOMPARE(files, size_t(2));
        auto a = cache.load("a"), b = cache.load("b");
        QVERIFY(a.has_value() && b.has_value());
        QCOMPARE(a->outputs.at("z").data()[49999], uint8_t(0x43));
        QCOMPARE(b->outputs.size(), size_t(1));
        QVERIFY(std::memcmp(b->outputs.at("y").data(), same.data(), same.size()) == 0);
        for (const auto& e : fs::directory_iterator(root / "blobs"))
            if (std::memcmp(toolchain::readBinaryFile(e.path().string()).data(), other.data(), 16) == 0) fs::remove(e.path());
        QVERIFY(!cache.load("a").has_value());  // its z is gone
        QVERIFY(cache.load("b").has_value());
        toolchain::writeFile((root / "b" / "result.json").string(), std::string(R"({"status":"ok","launches":[],"outputs":["y"]})"));
        QVERIFY(!cache.load("b").has_value());  // the layout before shared outputs
        toolchain::writeFile((root / "b" / "result.json").string(),
                             std::string(R"({"format":"run-v3","status":"ok","launches":[],"outputs":{"y":"../../../etc/passwd"}})"));
        QVERIFY(!cache.load("b").has_value());  // an output name that is not a hash
    }

    // A launch's timeline is stored as a blob, once per content, and comes back event for event;
    // the entry itself stays small, and an entry whose timeline blob is gone is a miss.
    void runCacheKeepsTimelinesAsBlobs() {
        namespace fs = std::filesystem;
        const fs::path root = (dir_.path() + "/timelineruns").toStdString();
        const eval::RunCache cache(root.string());
        toolchain::RunResult r;
        r.status = toolchain::RunStatus::Ok;
        toolchain::LaunchResult launch;
        launch.kernel = "k";
        launch.totalCycles = 1234;
        launch.ops = {"DataCopy", "Add"};
        for (uint32_t i = 0; i < 5000; ++i) launch.events.push_back({i % 8, uint8_t(i % 3), i * 10, i * 10 + 7, uint16_t(i % 2), 64, 1, 40 + i % 5, -1, 0});
        r.launches = {launch};
        cache.store("seed1", r, {}, true);
        cache.store("seed2", r, {}, true);  // the same timeline: one blob for both
        QVERIFY2(fs::file_size(root / "seed1" / "result.json") < 4096, "the events must not be inline");
        size_t blobs = 0;
        for (const auto& e : fs::directory_iterator(root / "blobs")) blobs += e.is_regular_file();
        QCOMPARE(blobs, size_t(1));
        auto back = cache.load("seed2");
        QVERIFY(back.has_value());
        QCOMPARE(back->result.launches.size(), size_t(1));
        const auto& events = back->result.launches[0].events;
        QCOMPARE(events.size(), size_t(5000));
        QCOMPARE(events[4999].start, uint64_t(49990));
        QCOMPARE(events[4999].line, uint32_t(44));
        QCOMPARE(events[7].flow, -1);
        QCOMPARE(back->result.launches[0].totalCycles, uint64_t(1234));
        for (const auto& e : fs::directory_iterator(root / "blobs")) fs::remove(e.path());
        QVERIFY(!cache.load("seed1").has_value());
    }

    // Entries of an earlier layout are unreachable (the layout is part of every key) but kept
    // their outputs: the first eviction after the change removes them, once, and keeps the rest.
    void runCacheSweepsEntriesOfAnotherLayoutOnce() {
        namespace fs = std::filesystem;
        const fs::path root = (dir_.path() + "/layoutruns").toStdString();
        const eval::RunCache cache(root.string());
        toolchain::RunResult r;
        r.status = toolchain::RunStatus::Ok;
        cache.store("current", r, {{"y", toolchain::Blob::own(std::vector<uint8_t>(4096, 7))}}, true);
        auto oldEntry = [&](const std::string& name) {
            fs::create_directories(root / name);
            toolchain::writeFile((root / name / "result.json").string(), std::string(R"({"status":"ok","outputs":["z"]})"));
            toolchain::writeFile((root / name / "z.bin").string(), std::string(1 << 16, 'z'));
        };
        oldEntry("v1");
        fs::create_directories(root / "damaged");  // no result.json: nothing any reader can load
        cache.trim();
        QVERIFY2(!fs::exists(root / "v1"), "an entry of the earlier layout is swept");
        QVERIFY(!fs::exists(root / "damaged"));
        QVERIFY2(cache.load("current").has_value(), "an entry of the current layout stays");
        QCOMPARE(toolchain::readTextFile((root / ".layout").string()), std::string("run-v3"));
        oldEntry("v1-later");  // written by an old binary after the sweep: left until the next layout change
        cache.trim();
        QVERIFY(fs::exists(root / "v1-later"));
        QVERIFY(cache.load("current").has_value());
    }

    // Cache files (inputs, references) are written through writeFile: a failure names the file and
    // the step, and a written file holds exactly the bytes given.
    void writeFileReportsWhereItFailed() {
        QTemporaryDir dir;
        const std::string ok = (dir.path() + "/out.bin").toStdString();
        const std::vector<uint8_t> bytes(100000, 0x5a);
        toolchain::writeFile(ok, bytes.data(), bytes.size());
        QCOMPARE(toolchain::readBinaryFile(ok), bytes);
        const std::string missing = (dir.path() + "/no/such/folder/out.bin").toStdString();
        try {
            toolchain::writeFile(missing, bytes.data(), bytes.size());
            QFAIL("writing into a missing folder must throw");
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(missing) != std::string::npos && what.find("open") != std::string::npos, e.what());
        }
    }

    // A run output the runner left in a file is linked into the cache, not copied: the stored
    // output shares the file's inode, and keeps the bytes after the runner's file is removed.
    void runCacheLinksMappedOutputs() {
        namespace fs = std::filesystem;
        const fs::path root = (dir_.path() + "/linkruns").toStdString();
        fs::create_directories(root / "outputs.tmp.1.0");
        const fs::path produced = root / "outputs.tmp.1.0" / "sage-run-x.0.y.bin";
        std::vector<uint8_t> bytes(4096);
        for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7);
        toolchain::writeFile(produced.string(), bytes.data(), bytes.size());
        const auto blob = toolchain::Blob::map(produced.string());
        QCOMPARE(blob.path(), produced.string());
        QVERIFY(toolchain::Blob::own({1, 2}).path().empty());
        toolchain::RunResult r;
        r.status = toolchain::RunStatus::Ok;
        const eval::RunCache cache(root.string());
        cache.store("linked", r, {{"y", blob}}, true);
        size_t linked = 0;
        for (const auto& e : fs::directory_iterator(root / "blobs")) linked += fs::equivalent(produced, e.path());
        QCOMPARE(linked, size_t(1));
        fs::remove_all(root / "outputs.tmp.1.0");
        auto back = cache.load("linked");
        QVERIFY(back.has_value());
        QCOMPARE(back->outputs.at("y").size(), bytes.size());
        QVERIFY(std::memcmp(back->outputs.at("y").data(), bytes.data(), bytes.size()) == 0);
        QVERIFY(std::memcmp(blob.data(), bytes.data(), bytes.size()) == 0);  // the mapping outlives the file
    }

    // The raw-bytes verifier: identical bits pass with zero error (whatever the data), one element
    // beyond tolerance is found at its index, a constant output fails and zeros equal to zeros pass.
    void verifierOnRawFloatOutputs() {
        auto bytesOf = [](const std::vector<float>& v) {
            std::vector<uint8_t> b(v.size() * sizeof(float));
            std::memcpy(b.data(), v.data(), b.size());
            return b;
        };
        std::vector<float> ref(20000);  // several 4096-element blocks: the block-compare path runs
        for (size_t i = 0; i < ref.size(); ++i) ref[i] = float(i % 97) - 40.5f;
        auto check = [&](const std::vector<float>& act) {
            auto e = bytesOf(ref), a = bytesOf(act);
            return eval::verifyOutput("y", "float32", {int64_t(ref.size())}, e.data(), e.size(), a.data(), a.size(),
                                      1e-5, 1e-5);
        };
        auto same = check(ref);
        QVERIFY2(same.pass, same.reason.c_str());
        QCOMPARE(same.maxAbsError, 0.0);
        QCOMPARE(same.checked, uint64_t(ref.size()));
        QCOMPARE(same.errorSample.size(), size_t(2048));  // every 9th element (20000 / 2048), capped
        QCOMPARE(same.histogram.at(0), uint64_t(ref.size()));
        auto oneOff = ref;
        oneOff[13500] += 1.0f;  // element 13500 = sample 1500 (13500 / 9)
        auto bad = check(oneOff);
        QVERIFY(!bad.pass);
        QCOMPARE(bad.mismatches, uint64_t(1));
        QCOMPARE(bad.firstMismatches.at(0).index.at(0), int64_t(13500));
        QCOMPARE(bad.errorSample.size(), size_t(2048));
        for (size_t k = 0; k < bad.errorSample.size(); ++k)
            QVERIFY2((bad.errorSample[k] > 0) == (k == 1500), ("sample " + std::to_string(k)).c_str());
        auto constant = check(std::vector<float>(ref.size(), ref[0]));
        QVERIFY(!constant.pass);
        auto zeroRef = std::vector<float>(ref.size(), 0.0f);
        ref = zeroRef;
        QVERIFY2(check(zeroRef).pass, "an all-zero output equal to an all-zero reference must pass");
    }

    // A cache folder over its budget loses its least recently used entries first; entries in use
    // (used within the minimum age), private work folders and builders' locks are never dropped.
    void cacheFolderIsTrimmedLeastRecentlyUsedFirst() {
        namespace fs = std::filesystem;
        const fs::path folder = (dir_.path() + "/trim").toStdString();
        const auto now = fs::file_time_type::clock::now();
        auto entry = [&](const std::string& name, int hoursAgo, bool isFile = false) {
            const fs::path p = folder / name;
            fs::create_directories(isFile ? folder : p);
            std::ofstream(isFile ? p : p / "kernel.so", std::ios::binary) << std::string(300 << 10, 'x');
            fs::last_write_time(p, now - std::chrono::hours(hoursAgo));
            return p;
        };
        const fs::path oldest = entry("a", 50), older = entry("b", 40), usedLately = entry("c", 30),
                       file = entry("d.bin", 20, true), newer = entry("e", 10), inUse = entry("f", 0),
                       privateWork = entry("g.tmp.1.0", 60), lock = entry("h.building", 60);
        toolchain::markUsed(usedLately);
        // 8 entries of 300 KiB over a 1 MiB budget: the four least recently used go. "c" was stored
        // long ago but has just been used, so it stays with the entry in use, the private work
        // folder and the lock, although the folder is then still over its budget.
        const auto trimmed = toolchain::trimCacheFolder(folder, 1 << 20, std::chrono::minutes(10));
        QCOMPARE(trimmed.freed, uint64_t(4 * (300 << 10)));
        QVERIFY(trimmed.newestDropped == now - std::chrono::hours(10));  // "e", the newest of the four
        for (const auto& gone : {oldest, older, file, newer}) QVERIFY2(!fs::exists(gone), gone.c_str());
        for (const auto& kept : {usedLately, inUse, privateWork, lock}) QVERIFY2(fs::exists(kept), kept.c_str());
        // Once nothing is in use any more, the least recently used goes first: "f" (stored now,
        // before "c" was used), then "c" only if the budget still needs it.
        fs::last_write_time(inUse, now - std::chrono::hours(2));
        fs::last_write_time(usedLately, now - std::chrono::hours(1));
        QCOMPARE(toolchain::trimCacheFolder(folder, 900 << 10, std::chrono::minutes(10)).freed, uint64_t(300 << 10));
        QVERIFY(!fs::exists(inUse));
        QVERIFY(fs::exists(usedLately));
        // With room to spare nothing goes, and a folder that does not exist is no error.
        QCOMPARE(toolchain::trimCacheFolder(folder, 100 << 20).freed, uint64_t(0));
        QVERIFY(!toolchain::trimCacheFolder(folder / "missing", 0).newestDropped);
    }

    // The periodic trim walks a folder at most once per interval, for every process: the stamp
    // file says when it last did.
    void cacheFolderTrimIsRateLimitedByItsStamp() {
        namespace fs = std::filesystem;
        const fs::path folder = (dir_.path() + "/trim-stamp").toStdString();
        auto addOld = [&](const std::string& name) {
            fs::create_directories(folder / name);
            std::ofstream(folder / name / "x", std::ios::binary) << std::string(1 << 20, 'x');
            fs::last_write_time(folder / name, fs::file_time_type::clock::now() - std::chrono::hours(1));
        };
        addOld("a");
        qputenv("SAGE_CACHE_MB", "0");
        toolchain::trimCacheFolderSometimes(folder, std::chrono::hours(1));
        QVERIFY2(!fs::exists(folder / "a"), "the first call trims");
        QVERIFY(fs::exists(folder / ".trimmed"));
        addOld("b");
        toolchain::trimCacheFolderSometimes(folder, std::chrono::hours(1));
        QVERIFY2(fs::exists(folder / "b"), "a second call within the interval must not walk the folder");
        fs::last_write_time(folder / ".trimmed", fs::file_time_type::clock::now() - std::chrono::hours(2));
        toolchain::trimCacheFolderSometimes(folder, std::chrono::hours(1));
        qunsetenv("SAGE_CACHE_MB");
        QVERIFY2(!fs::exists(folder / "b"), "once the interval has passed the folder is trimmed again");
        QVERIFY2(fs::exists(folder / ".trimmed"), "the stamp itself is never trimmed");
    }

    // An op project's include folders change nothing in the precompiled kernel API: compiles of
    // two projects share one header (a compat scan used to build a 32 MB header per project),
    // and each compile still sees its own project's headers.
    void opProjectsShareOnePrecompiledHeader() {
        namespace fs = std::filesystem;
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.cacheDir = (dir_.path() + "/cache-projects").toStdString();
        const toolchain::Compiler compiler(paths);
        for (const char* project : {"p1", "p2"}) {
            const std::string include = write(std::string(project) + "/op_kernel/local.h", "constexpr int kLocal = 3;\n");
            toolchain::CompileRequest req;
            req.deviceId = "ascend910b1-sim";
            req.extraFlags = {"-I" + fs::path(include).parent_path().string()};
            req.source = "#include \"kernel_operator.h\"\n#include \"local.h\"\n"
                         "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { (void)x; static_assert(kLocal == 3); }\n";
            auto r = compiler.compile(req);
            QVERIFY2(r.ok, r.diagnostics.empty() ? "" : r.diagnostics[0].message.c_str());
        }
        std::set<std::string> keys;  // "<key>", "<key>.building" or "<key>.tmp.*": one header each
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(fs::path(paths.cacheDir) / "pch", ec)) {
            const std::string name = e.path().filename().string();
            if (name.front() == '.') continue;  // the trimming stamp (.trimmed), not a header
            keys.insert(name.substr(0, name.find('.')));
        }
        QVERIFY2(keys.size() <= 1, ("precompiled headers for two projects: " + std::to_string(keys.size())).c_str());
    }

    // The PCH variant with <cmath>/<cstring> is used only for a source that includes both: a
    // kernel whose entry is named like a C library function (an op called `sin`) still compiles,
    // and one that includes the headers itself sees their names.
    void entryNamedLikeALibmFunctionCompiles() {
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.cacheDir = (dir_.path() + "/cache").toStdString();
        const toolchain::Compiler compiler(paths);
        toolchain::CompileRequest req;
        req.deviceId = "ascend910b1-sim";
        req.source = "#include \"kernel_operator.h\"\n"
                     "extern \"C\" __global__ __aicore__ void sin(GM_ADDR x, GM_ADDR y) { (void)x; (void)y; }\n";
        auto plain = compiler.compile(req);
        QVERIFY2(plain.ok, plain.diagnostics.empty() ? "" : plain.diagnostics[0].message.c_str());
        req.source = "#include \"kernel_operator.h\"\n#include <cmath>\n#include <cstring>\n"
                     "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { float f = std::sqrt(2.0f); "
                     "std::memcpy(&f, &f, sizeof f); (void)x; }\n";
        auto withStd = compiler.compile(req);
        QVERIFY2(withStd.ok, withStd.diagnostics.empty() ? "" : withStd.diagnostics[0].message.c_str());
        // Scalar C math called unqualified, as device code does, next to an entry named like it,
        // and with the kernel's own <math.h> (whose functions must not make the calls ambiguous;
        // the entry is not named sin there, since <math.h> itself declares that name).
        for (auto [extra, entry] : {std::pair{"", "sin"}, std::pair{"#include <math.h>\n", "k"}}) {
            req.source = std::string("#include \"kernel_operator.h\"\n") + extra + "extern \"C\" __global__ __aicore__ void " +
                         entry + "(GM_ADDR x) { float f = expf(1.0f) + sqrt(2.0f) + "
                         "fmaxf(1.0f, 0.5f) + float(pow(2.0, 3)); (void)f; (void)x; }\n";
            auto scalarMath = compiler.compile(req);
            QVERIFY2(scalarMath.ok, scalarMath.diagnostics.empty() ? extra : scalarMath.diagnostics[0].message.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestToolchainUnits)
#include "test_toolchain_units.moc"

// The KernelBench level-1 port (resources/kernelbench/level1) and its peer harness
// (scripts/kernelbench-peer.sh): the 100 tasks load with a compute spec or a stated gap, a
// reference that ignores its inputs fails the self-check, and the harness runs two op projects
// written here (tests/eval/data/kernelbench) — one correct, one that leaves an unaligned tail
// unwritten — and reports compiled / host tiling / verified / cycles per case and the reason.
#include "sage_eval/Evaluator.h"
#include "sage_eval/Task.h"
#include "sage_toolchain/Files.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace sage;
using nlohmann::json;
namespace fs = std::filesystem;

class TestKernelBench : public QObject {
    Q_OBJECT

    const std::string data_ = SAGE_TEST_DATA_DIR "/kernelbench";

    static void write(const fs::path& file, const std::string& text) {
        fs::create_directories(file.parent_path());
        std::ofstream(file) << text;
    }

    // Runs the harness script; returns its exit code and fills `rows` (one per project) by name.
    static int runHarness(const QStringList& args, std::map<std::string, json>& rows, QString& out, QString& err) {
        QProcess p;
        p.start("sh", QStringList{SAGE_SOURCE_DIR "/scripts/kernelbench-peer.sh"} + args);
        if (!p.waitForFinished(900000)) return -1;
        out = QString::fromUtf8(p.readAllStandardOutput());
        err = QString::fromUtf8(p.readAllStandardError());
        if (args.size() > 1) {
            std::ifstream in(args[1].toStdString());
            for (std::string line; std::getline(in, line);)
                if (!line.empty()) {
                    json row = json::parse(line);
                    rows[row.value("project", "")] = row;
                }
        }
        return p.exitCode();
    }

private slots:
    void theHundredTasksLoadWithSpecOrGap() {
        auto set = eval::TaskSet::load({SAGE_SOURCE_DIR "/resources/kernelbench/level1"});
        QVERIFY2(set.errors.empty(), set.errors.empty() ? "" : set.errors.front().c_str());
        QCOMPARE(set.tasks.size(), size_t(100));
        std::set<std::string> splits;
        size_t withSpec = 0;
        for (const auto& t : set.tasks) {
            QVERIFY2(t.compute.present != !t.computeGap.empty(), t.name.c_str());  // one or the other
            withSpec += t.compute.present ? 1 : 0;
            splits.insert(t.split);
            QVERIFY2(t.findCase("small") && t.findCase("tail") && t.perfCase().name == "perf", t.name.c_str());
            const json j = json::parse(t.taskJsonText);
            QVERIFY2(j.contains("kernelbench_dims") && !j["kernelbench_dims"].empty(), t.name.c_str());
        }
        QVERIFY(withSpec >= 96);  // all but batch norm, group norm, the separable conv and attention
        QCOMPARE(splits, (std::set<std::string>{"train", "test"}));
    }

    void computeGapNextToASpecIsRefused() {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "both";
        json j = json::parse(toolchain::readTextFile(data_ + "/tasks/t1_relu/task.json"));
        j["name"] = "both";
        j["compute_gap"] = "says it has none";
        write(dir / "task.json", j.dump());
        write(dir / "reference.cpp", toolchain::readTextFile(data_ + "/tasks/t1_relu/reference.cpp"));
        try {
            eval::Task::loadDirectory(dir.string());
            QFAIL("a task with both compute and compute_gap loaded");
        } catch (const eval::TaskError& e) {
            QVERIFY2(std::string(e.what()).find("field 'compute_gap'") != std::string::npos, e.what());
        }
    }

    void selfCheckPassesAGoodReferenceAndFailsAConstantOne() {
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.binDir = SAGE_TEST_BIN_DIR;
        eval::Evaluator evaluator(paths, toolchain::DeviceCatalog::loadDirectory(paths.devicesDir()));
        const auto good = evaluator.checkReference(eval::Task::loadDirectory(data_ + "/tasks/t1_relu"), {});
        QVERIFY2(good.ok, good.problem.c_str());

        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "t1_relu";
        fs::copy(data_ + "/tasks/t1_relu", dir, fs::copy_options::recursive);
        write(dir / "reference.cpp", "#include \"sage_reference.h\"\nSAGE_REFERENCE(ctx) {\n"
                                     "    auto y = ctx.out(\"y\");\n    for (auto& v : y) v = 1.0;\n}\n");
        const auto constant = evaluator.checkReference(eval::Task::loadDirectory(dir.string()), {});
        QVERIFY(!constant.ok);
        QVERIFY2(constant.problem.find("case 'small', output 'y'") != std::string::npos, constant.problem.c_str());
        QVERIFY2(constant.problem.find("constant") != std::string::npos, constant.problem.c_str());

        write(dir / "reference.cpp", "#include \"sage_reference.h\"\nSAGE_REFERENCE(ctx) { undeclared(ctx); }\n");
        const auto broken = evaluator.checkReference(eval::Task::loadDirectory(dir.string()), {});
        QVERIFY(!broken.ok);
        QVERIFY2(broken.problem.find("does not compile") != std::string::npos, broken.problem.c_str());
    }

    void harnessReportsEachProjectWithItsReason() {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("peer.jsonl");
        std::map<std::string, json> rows;
        QString table, err;
        const int code = runHarness({QString::fromStdString(data_ + "/ops"), out, SAGE_CLI_PATH, "--map",
                                     QString::fromStdString(data_ + "/peer-map.json"), "--tasks",
                                     QString::fromStdString(data_ + "/tasks"), "--timeout", "120"},
                                    rows, table, err);
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(rows.size(), size_t(3));

        const json& relu = rows["TinyReluCustom"];
        QVERIFY2(relu.value("verified", false), relu.dump().c_str());
        QVERIFY(relu.value("compiled", false) && relu.value("host_tiling", false));
        for (const char* c : {"small", "tail", "perf"})
            QVERIFY2(relu["cases"][c].value("cycles", 0) > 0, relu.dump().c_str());
        // More elements, more cycles: the cycles are the case's own, not one figure repeated.
        QVERIFY(relu["cases"]["perf"]["cycles"].get<int64_t>() > relu["cases"]["small"]["cycles"].get<int64_t>());

        const json& scale = rows["TinyScaleCustom"];  // renamed a/s/c; s comes from the task's attribute
        QVERIFY2(scale.value("compiled", false) && scale.value("host_tiling", false), scale.dump().c_str());
        QVERIFY(!scale.value("verified", true));
        QCOMPARE(scale.value("stage", ""), std::string("verify"));
        QVERIFY2(scale.value("reason", "").find("never wrote") != std::string::npos, scale.dump().c_str());
        QVERIFY2(scale["cases"]["small"].value("cycles", 0) > 0, scale.dump().c_str());  // small passed first

        QCOMPARE(rows["AbsentCustom"].value("stage", ""), std::string("missing"));
        QVERIFY2(table.contains("3 projects: 2 compiled, 2 ran their host tiling on every case, 1 verified"),
                 qPrintable(table));
    }

    void harnessRefusesAMissingFolder() {
        std::map<std::string, json> rows;
        QString out, err;
        QCOMPARE(runHarness({"/nonexistent/evokernel"}, rows, out, err), 2);
        QVERIFY2(err.contains("not a directory"), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestKernelBench)
#include "test_kernelbench.moc"

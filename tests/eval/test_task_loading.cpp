// Loading task folders (issue 14): a field of the wrong type is reported with the file and the
// field, never as a bare JSON-library message; element counts that overflow or exceed 2^31 per
// tensor are refused at load instead of crashing the reference; a task needs no baseline.cpp.
#include "sage_eval/Task.h"

#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace sage;
namespace fs = std::filesystem;

class TestTaskLoading : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int n_ = 0;

    std::string write(const std::string& casesAndMore, const std::string& shape = R"(["N"])") {
        std::string name = "t";
        name += std::to_string(n_++);  // not "t" + to_string(): GCC 12 warns (-Wrestrict) on that form
        fs::path d = fs::path(dir_.path().toStdString()) / name;
        fs::create_directories(d);
        std::ofstream(d / "task.json") << R"({"name":"t","category":"c","description":"d","split":"train",
            "inputs":[{"name":"x","dtype":"float32","shape":)" + shape + R"(}],
            "outputs":[{"name":"y","dtype":"float32","shape":)" + shape + "}]," + casesAndMore + "}";
        std::ofstream(d / "reference.cpp") << "// unused\n";
        return d.string();
    }
    // The load error, or "" when the folder loads.
    std::string loadError(const std::string& dir) {
        try {
            eval::Task::loadDirectory(dir);
            return "";
        } catch (const eval::TaskError& e) {
            return e.what();
        }
    }

private slots:
    void wrongTypesNameFileAndField_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("perf yes") << R"J("cases":[{"name":"a","dims":{"N":8},"perf":"yes"}])J" << "cases[0].perf";
        QTest::newRow("dims text") << R"J("cases":[{"name":"a","dims":{"N":"8"},"perf":true}])J" << "cases[0].dims.N";
        QTest::newRow("init dist number")
            << R"J("cases":[{"name":"a","dims":{"N":8},"perf":true}],"init":{"x":{"dist":3}})J" << "init.x.dist";
        QTest::newRow("seeds text") << R"J("cases":[{"name":"a","dims":{"N":8},"perf":true}],"seeds":["a"])J" << "seeds";
        QTest::newRow("launch not object") << R"J("cases":[{"name":"a","dims":{"N":8},"perf":true}],"launch":3)J" << "launch";
        QTest::newRow("tiling fields") << R"J("cases":[{"name":"a","dims":{"N":8},"perf":true}],
            "launch":{"entry":"k","args":["x","y"],"block_dim":"1","tiling":{"fields":7}})J"
                                       << "launch.tiling.fields";
        QTest::newRow("tiling key") << R"J("cases":[{"name":"a","dims":{"N":8},"perf":true}],
            "launch":{"entry":"k","args":["x","y"],"block_dim":"1","tiling_key":"one"})J"
                                    << "launch.tiling_key";
    }
    // "verify": false marks an output the op leaves undefined; an input cannot say it, nor a text.
    void verifyFlagIsAnOutputsBoolean() {
        const std::string cases = R"J("cases":[{"name":"a","dims":{"N":8},"perf":true}])J";
        const std::string ok = write(cases);
        QVERIFY(eval::Task::loadDirectory(ok).outputs[0].verified);
        auto withFlag = [&](const std::string& inputFlag, const std::string& outputFlag) {
            const std::string dir = write(cases);
            std::string text;
            {
                std::ifstream in(fs::path(dir) / "task.json");
                text.assign(std::istreambuf_iterator<char>(in), {});
            }
            text.replace(text.find(R"("name":"x","dtype":"float32")"), 28, R"("name":"x","dtype":"float32")" + inputFlag);
            text.replace(text.find(R"("name":"y","dtype":"float32")"), 28, R"("name":"y","dtype":"float32")" + outputFlag);
            std::ofstream(fs::path(dir) / "task.json") << text;
            return dir;
        };
        QVERIFY(!eval::Task::loadDirectory(withFlag("", R"(,"verify":false)")).outputs[0].verified);
        std::string e = loadError(withFlag(R"(,"verify":false)", ""));
        QVERIFY2(e.find("field 'inputs[0].verify'") != std::string::npos && e.find("only an output") != std::string::npos, e.c_str());
        e = loadError(withFlag("", R"(,"verify":"no")"));
        QVERIFY2(e.find("field 'outputs[0].verify'") != std::string::npos, e.c_str());
    }

    // A tolerance per data type applies to outputs of that type only; a key that is no data type
    // is refused with the field.
    void toleranceByDataType() {
        const std::string cases = R"J("cases":[{"name":"a","dims":{"N":8},"perf":true}])J";
        const eval::Task t = eval::Task::loadDirectory(write(cases + R"J(,"tolerance":{"int8":{"atol":1,"rtol":0}})J"));
        QCOMPARE(t.toleranceFor("int8").atol, 1.0);
        QCOMPARE(t.toleranceFor("float32").atol, eval::defaultTolerance("float32").atol);
        const std::string e = loadError(write(cases + R"J(,"tolerance":{"int9":{"atol":1,"rtol":0}})J"));
        QVERIFY2(e.find("field 'tolerance.int9'") != std::string::npos && e.find("is not a data type") != std::string::npos,
                 e.c_str());
    }

    void wrongTypesNameFileAndField() {
        QFETCH(QString, json);
        QFETCH(QString, field);
        const std::string dir = write(json.toStdString());
        const std::string e = loadError(dir);
        QVERIFY2(e.find(dir + "/task.json") != std::string::npos, e.c_str());
        QVERIFY2(e.find("field '" + field.toStdString() + "'") != std::string::npos, e.c_str());
        QVERIFY2(e.find("[json.exception") == std::string::npos, e.c_str());
    }

    void hugeTensorsAreRefused_data() {
        QTest::addColumn<QString>("dims");
        QTest::addColumn<QString>("shape");
        QTest::newRow("N = 2^61") << R"J({"N":2305843009213693952})J" << R"J(["N"])J";
        QTest::newRow("[N,N,N], N = 2^22") << R"J({"N":4194304})J" << R"J(["N","N","N"])J";
        QTest::newRow("2^31 + 1") << R"J({"N":2147483649})J" << R"J(["N"])J";
        QTest::newRow("product of symbols") << R"J({"N":65536})J" << R"J(["N*N"])J";
    }
    void hugeTensorsAreRefused() {
        QFETCH(QString, dims);
        QFETCH(QString, shape);
        const std::string dir = write(R"J("cases":[{"name":"big","dims":)J" + dims.toStdString() + R"J(,"perf":true}])J",
                                      shape.toStdString());
        const std::string e = loadError(dir);
        QVERIFY2(e.find(dir + "/task.json") != std::string::npos, e.c_str());
        QVERIFY2(e.find("cases.big") != std::string::npos, e.c_str());
        QVERIFY2(e.find("2^31") != std::string::npos, e.c_str());
    }

    void largestAllowedTensorLoads() {
        // 2^31 elements exactly is the limit, not past it; a task needs no baseline.cpp.
        const std::string dir = write(R"J("cases":[{"name":"a","dims":{"N":2147483648},"perf":true}])J");
        QCOMPARE(loadError(dir), std::string());
        eval::Task t = eval::Task::loadDirectory(dir);
        QVERIFY(t.baselineSource.empty());
        QVERIFY(!t.compute.present);
    }
};

QTEST_GUILESS_MAIN(TestTaskLoading)
#include "test_task_loading.moc"

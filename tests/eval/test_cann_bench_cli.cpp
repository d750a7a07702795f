// The CLI on a folder in CANN Bench's layout (tests/eval/data/cann_bench_mini, written here):
// `sage tasks` lists its operators with what the built-in draft needs, `--check` runs every golden,
// `sage bench` prints per-case HAP, operator scores and level sums and writes them to its JSON, and
// without PyTorch it stops before any work with the line that installs it.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {
const QString kMini = QStringLiteral(SAGE_TEST_DATA_DIR) + "/cann_bench_mini";
const QString kKernels = QStringLiteral(SAGE_TEST_DATA_DIR) + "/cann_bench_kernels";

struct Result {
    int code = -1;
    QString out, err;
};
} // namespace

class TestCannBenchCli : public QObject {
    Q_OBJECT
    QTemporaryDir home_;

    Result sage(const QStringList& args, const QString& python = {}) {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("SAGE_CACHE_DIR", home_.path() + "/cache");
        env.insert("XDG_DATA_HOME", home_.path() + "/data");
        if (!python.isEmpty()) env.insert("SAGE_PYTHON", python);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SAGE_CLI_PATH), args);
        if (!p.waitForFinished(600000)) return {};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }
    bool havePython() { return sage({"tasks", "--tasks", kMini, "--check"}).code == 0; }

private slots:
    void initTestCase() { QVERIFY(home_.isValid()); }

    void listsTheOperatorsWithWhatTheDraftNeeds() {
        const Result r = sage({"tasks", "--tasks", kMini});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("level1") && r.out.contains("scaled_relu") && r.out.contains("row_argmax"), qPrintable(r.out));
        QVERIFY2(r.out.contains("inputs of different dtypes in one case"), qPrintable(r.out));  // masked_keep's need
        QVERIFY2(r.out.contains("3 CANN Bench operators; the built-in policy drafts 1"), qPrintable(r.out));  // scaled_relu
        // Read as a suite of its own: none of the built-in tasks is listed with it.
        QVERIFY(!r.out.contains("layernorm"));
        const Result j = sage({"tasks", "--tasks", kMini, "--json"});
        const json rows = json::parse(j.out.toStdString(), nullptr, false);
        QVERIFY(rows.is_array());
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[2]["name"].get<std::string>(), std::string("scaled_relu"));
        QCOMPARE(rows[2]["measured_baselines"].get<int>(), 2);  // cases 1 and 3; case 2 is the 10 us stand-in
    }

    void withoutPyTorchItStopsBeforeAnyWork() {
        const Result r = sage({"bench", "--tasks", kMini, "--policy", "builtin", "--budget", "1"}, "/bin/false");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("apt-get install python3-torch python3-yaml"), qPrintable(r.err));
        QVERIFY2(!r.err.contains("measuring"), qPrintable(r.err));
        const Result c = sage({"tasks", "--tasks", kMini, "--check"}, "/bin/false");
        QCOMPARE(c.code, 2);
        QVERIFY(c.err.contains("python3-torch"));
    }

    void checkRunsEveryGolden() {
        const Result r = sage({"tasks", "--tasks", kMini, "--check"});
        if (r.err.contains("python3-torch")) QSKIP("PyTorch is not installed here (scripts/install-deps.sh installs it)");
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("3 operators: 7 goldens ran, 0 failed, 0 cases skipped"), qPrintable(r.out));
    }

    void benchPrintsHapScoresAndLevelSums() {
        if (!havePython()) QSKIP("PyTorch is not installed here (scripts/install-deps.sh installs it)");
        QTemporaryDir out;
        const QString report = out.path() + "/bench.json";
        const Result r = sage({"bench", "--tasks", kMini, "--policy", "builtin", "--budget", "1", "--kernels", kKernels, "--out", report});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("scaled_relu (level1): score"), qPrintable(r.out));
        QVERIFY2(r.out.contains("HAP"), qPrintable(r.out));
        QVERIFY2(r.out.contains("level1   level sum") && r.out.contains("level2   level sum"), qPrintable(r.out));
        std::ifstream in(report.toStdString());
        const json j = json::parse(in, nullptr, false);
        QVERIFY(j.is_object() && j.contains("cann_bench"));
        QCOMPARE(j["cann_bench"]["operators"].size(), size_t(3));
        QVERIFY(j["cann_bench"]["total"].get<double>() > 0);
        for (const auto& row : j["tasks"]) {
            QVERIFY(row.contains("cann"));
            QVERIFY(row["started_from_kernel"].get<bool>());
            QVERIFY(row["cann"]["cases"][0]["hap"].is_number());  // every first case has metadata times
        }
    }
};

QTEST_GUILESS_MAIN(TestCannBenchCli)
#include "test_cann_bench_cli.moc"

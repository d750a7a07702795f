// `sage cache` shows what each cache folder holds against its budget, and `--trim` drops the
// least recently used entries beyond it, leaving the ones in use.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;
namespace fs = std::filesystem;

class TestCacheCli : public QObject {
    Q_OBJECT

    static json cache(const QString& cacheDir, const QStringList& extra, const QString& budgetMb) {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("SAGE_CACHE_DIR", cacheDir);
        env.insert("SAGE_CACHE_MB", budgetMb);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SAGE_CLI_PATH), QStringList{"cache", "--json"} + extra);
        if (!p.waitForFinished(60000) || p.exitCode() != 0) return json();
        return json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
    }
    static json folder(const json& report, const std::string& name) {
        for (const auto& f : report.value("folders", json::array()))
            if (f.value("name", "") == name) return f;
        return json();
    }

private slots:
    void showsAndTrimsEachFolder() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path kernels = fs::path(dir.path().toStdString()) / "kernels";
        const auto now = fs::file_time_type::clock::now();
        for (int i = 0; i < 4; ++i) {
            fs::path entry = kernels / "k";
            entry += std::to_string(i);
            fs::create_directories(entry);
            std::ofstream(entry / "kernel.so", std::ios::binary) << std::string(512 << 10, 'x');
            // k0 is the least recently used; k3 was used a moment ago (an evaluation may hold it).
            fs::last_write_time(entry, i == 3 ? now : now - std::chrono::hours(10 - i));
        }
        const json shown = cache(dir.path(), {}, "1");
        QVERIFY2(shown.is_object(), "sage cache --json failed");
        QCOMPARE(shown.value("cache_dir", ""), dir.path().toStdString());
        const json before = folder(shown, "kernels");
        QCOMPARE(before.value("entries", 0), 4);
        QCOMPARE(before.value("bytes", uint64_t(0)), uint64_t(4 * (512 << 10)));
        QCOMPARE(before.value("budget_bytes", uint64_t(0)), uint64_t(1 << 20));
        QVERIFY2(fs::exists(kernels / "k0"), "showing must not trim");
        for (const char* name : {"pch", "inputs", "reference", "runs"})  // missing folders are empty, not errors
            QCOMPARE(folder(shown, name).value("bytes", uint64_t(1)), uint64_t(0));

        const json trimmed = folder(cache(dir.path(), {"--trim"}, "1"), "kernels");
        QCOMPARE(trimmed.value("entries", 0), 2);  // 1 MiB holds two entries of 512 KiB
        QCOMPARE(trimmed.value("freed_bytes", uint64_t(0)), uint64_t(2 * (512 << 10)));
        QVERIFY(!fs::exists(kernels / "k0") && !fs::exists(kernels / "k1"));
        QVERIFY(fs::exists(kernels / "k2") && fs::exists(kernels / "k3"));

        // With a budget of 0 everything goes except what was used in the last minutes.
        const json emptied = folder(cache(dir.path(), {"--trim"}, "0"), "kernels");
        QCOMPARE(emptied.value("entries", 0), 1);
        QVERIFY(fs::exists(kernels / "k3"));
    }
};

QTEST_GUILESS_MAIN(TestCacheCli)
#include "test_cache_cli.moc"

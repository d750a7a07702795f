// Running `sage` (or a script) from a test: exit code and both outputs, and the skip that the
// PostgreSQL suites share. Header-only, QtCore only.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <cstdlib>

namespace sage::test {

struct CliRun {
    int code = -1; // -1: crashed or killed
    QString out, err;
};

// Waits for a started process (killed after timeoutMs) and collects what it printed.
inline CliRun finishProcess(QProcess& process, int timeoutMs = 300000) {
    if (!process.waitForFinished(timeoutMs)) process.kill();
    CliRun run;
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

inline CliRun runProgram(const QString& program, const QStringList& args,
                         const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                         const QString& workingDirectory = {}, int timeoutMs = 300000) {
    QProcess process;
    process.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty()) process.setWorkingDirectory(workingDirectory);
    process.start(program, args);
    return finishProcess(process, timeoutMs);
}

// SAGE_SKIP_PG_TESTS=1 skips on purpose: exit 77, which ctest reports as "Skipped".
inline void skipWhenPostgresTestsAreOff() {
    if (qEnvironmentVariable("SAGE_SKIP_PG_TESTS") != "1") return;
    std::fprintf(stderr, "SKIP: SAGE_SKIP_PG_TESTS=1, the PostgreSQL tests are skipped on request\n");
    std::fflush(stderr);
    std::_Exit(77);
}

} // namespace sage::test

// The settings dialog and the API key: a key typed into Settings goes to the desktop keychain
// (QtKeychain) and never into the settings file; the keychain either stores it or says why,
// without a plain-text fallback; the agent's settings never serialise it. The dialog shows the
// database actually in use, also when --db chose it.
#include "sage_agent/AgentSettings.h"
#include "ui/ApiKeyStore.h"
#include "ui/SettingsDialog.h"
#include "ui/WorkbenchSettings.h"

#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace sage;
using namespace sage::ui;

namespace {
const QString kSecret = QStringLiteral("sk-test-4f1c9e-never-on-disk");

// Every file under `dir` that contains the secret.
QStringList filesHolding(const QString& dir, const QString& secret) {
    QStringList hits;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(secret.toUtf8())) hits << f.fileName();
    }
    return hits;
}
} // namespace

class TestSettingsSecrets : public QObject {
    Q_OBJECT
    QTemporaryDir root_;

private slots:
    void initTestCase() {
        QVERIFY(root_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SAGE-test"));
        QCoreApplication::setApplicationName(QStringLiteral("sage-settings-test"));
        qputenv("XDG_CONFIG_HOME", (root_.path() + "/config").toLocal8Bit());
        qputenv("XDG_DATA_HOME", (root_.path() + "/data").toLocal8Bit());
    }

    void aTypedKeyNeverReachesTheSettingsFile() {
        SettingsDialog dialog(WorkbenchSettings{}, {});
        auto* field = dialog.findChild<QLineEdit*>("apiKeyField");
        QVERIFY(field);
        QCOMPARE(field->echoMode(), QLineEdit::Password);
        field->setText(QStringLiteral("  ") + kSecret + QStringLiteral(" "));
        QCOMPARE(dialog.newApiKey(), kSecret);
        dialog.settings().save();
        QSettings s;
        s.sync();
        QVERIFY(QFileInfo::exists(s.fileName()));
        QCOMPARE(filesHolding(root_.path(), kSecret), QStringList());
    }

    void theKeychainStoresTheKeyOrSaysWhyWithoutAPlainTextCopy() {
        ApiKeyStore store;
        QSignalSpy written(&store, &ApiKeyStore::written);
        store.write(kSecret);
        QVERIFY(written.wait(60000));
        const QString error = written.first().at(0).toString();
        if (error.isEmpty()) {  // a desktop session with a keychain: the key comes back
            QSignalSpy read(&store, &ApiKeyStore::keyRead);
            store.read();
            QVERIFY(read.wait(60000));
            QCOMPARE(read.first().at(0).toString(), kSecret);
            QSignalSpy removed(&store, &ApiKeyStore::removed);
            store.remove();
            QVERIFY(removed.wait(60000));
        } else {  // no keychain (a headless machine): the reason names it, never the key
            QVERIFY2(error.contains("keychain"), qPrintable(error));
            QVERIFY(!error.contains(kSecret));
        }
        QCOMPARE(filesHolding(root_.path(), kSecret), QStringList());  // no insecure fallback file
    }

    void theAgentsSettingsNeverSerialiseTheKey() {
        agent::AgentSettings s;
        s.policy = "llm";
        s.llm.apiKey = kSecret.toStdString();
        QVERIFY(s.toJson().dump().find(kSecret.toStdString()) == std::string::npos);
        QVERIFY(agent::AgentSettings::fromJson(s.toJson()).llm.apiKey.empty());
    }

    void theDialogShowsTheDatabaseInUse() {
        WorkbenchSettings base;
        base.dbPath = QStringLiteral("/home/me/team.db");
        {
            SettingsDialog dialog(base, {});
            dialog.setDatabaseInUse(QStringLiteral("/tmp/run/override.db"), true);  // sage-workbench --db
            auto* inUse = dialog.findChild<QLabel*>("databaseInUse");
            QVERIFY(inUse && !inUse->isHidden());
            QVERIFY(inUse->text().contains("/tmp/run/override.db"));
            QVERIFY(inUse->text().contains("--db"));
            QVERIFY(!dialog.findChild<QPushButton*>("browseDatabase")->isEnabled());
            QCOMPARE(dialog.settings().dbPath, base.dbPath);  // the setting itself is kept for starts without --db
        }
        SettingsDialog dialog(base, {});
        dialog.setDatabaseInUse(QStringLiteral("/home/me/team.db"), false);
        QVERIFY(dialog.findChild<QLabel*>("databaseInUse")->text().contains("/home/me/team.db"));
        QCOMPARE(dialog.settings().dbPath, base.dbPath);
    }
};

QTEST_MAIN(TestSettingsSecrets)
#include "test_settings_secrets.moc"

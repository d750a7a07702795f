// The LLM API key in the desktop keychain (QtKeychain: the Secret Service of GNOME/KDE, or
// KWallet). The key is never written to the settings, the database or a log: no insecure
// fallback to a settings file, and errors name the keychain, never the key. Headless runs keep
// using the environment variable named in the settings, which wins when it is set.
// Keychain jobs are asynchronous; their results arrive as signals on the GUI thread.
#pragma once

#include <QObject>
#include <QString>

namespace sage::ui {

class ApiKeyStore : public QObject {
    Q_OBJECT
public:
    static constexpr const char* kService = "sage-workbench";
    static constexpr const char* kAccount = "llm-api-key";

    explicit ApiKeyStore(QObject* parent = nullptr) : QObject(parent) {}
    void read();
    void write(const QString& key);
    void remove();

signals:
    // `key` empty when none is stored; `error` empty on success, else what the keychain said.
    void keyRead(const QString& key, const QString& error);
    void written(const QString& error);
    void removed(const QString& error);
};

} // namespace sage::ui

#include "ui/ApiKeyStore.h"

#include <qt6keychain/keychain.h>

namespace sage::ui {

namespace {
template <class JobT> JobT* makeJob(QObject* parent) {
    auto* job = new JobT(QString::fromLatin1(ApiKeyStore::kService), parent);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);  // never a plain-text copy in a settings file
    job->setKey(QString::fromLatin1(ApiKeyStore::kAccount));
    return job;
}

QString describe(const QKeychain::Job& job) {
    if (job.error() == QKeychain::NoError) return {};
    return QObject::tr("the desktop keychain (%1) answered: %2").arg(QString::fromLatin1(ApiKeyStore::kService), job.errorString());
}
} // namespace

void ApiKeyStore::read() {
    auto* job = makeJob<QKeychain::ReadPasswordJob>(this);
    connect(job, &QKeychain::Job::finished, this, [this, job]() {
        if (job->error() == QKeychain::EntryNotFound) emit keyRead({}, {});
        else emit keyRead(job->error() == QKeychain::NoError ? job->textData() : QString(), describe(*job));
    });
    job->start();
}

void ApiKeyStore::write(const QString& key) {
    auto* job = makeJob<QKeychain::WritePasswordJob>(this);
    job->setTextData(key);
    connect(job, &QKeychain::Job::finished, this, [this, job]() { emit written(describe(*job)); });
    job->start();
}

void ApiKeyStore::remove() {
    auto* job = makeJob<QKeychain::DeletePasswordJob>(this);
    connect(job, &QKeychain::Job::finished, this, [this, job]() {
        emit removed(job->error() == QKeychain::EntryNotFound ? QString() : describe(*job));
    });
    job->start();
}

} // namespace sage::ui

#include "ui/MemoryService.h"

#include "ui/ReviewQueue.h"

#include "sage_memory/MemoryError.h"

#include "sage_memory/DatabaseLocation.h"

#include <QFileInfo>
#include <QSocketNotifier>

#include <set>
#include <tuple>

#include <filesystem>

namespace sage::ui {

MemoryService::MemoryService(QObject* parent)
    : QObject(parent),
      store_(std::make_shared<std::unique_ptr<memory::ExperienceStore>>()),
      listener_(std::make_shared<std::unique_ptr<memory::ChangeListener>>()) {
    qRegisterMetaType<ExperienceList>();
    qRegisterMetaType<std::shared_ptr<const ExperienceDetail>>();
    thread_.setObjectName(QStringLiteral("sage-memory"));
    worker_ = new QObject;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start();
}

MemoryService::~MemoryService() {
    auto store = store_;
    auto listener = listener_;
    QMetaObject::invokeMethod(worker_, [store, listener]() {
        store->reset();
        listener->reset();  // the notifier (a child of the worker) goes with the worker
    }, Qt::QueuedConnection);
    thread_.quit();
    thread_.wait();
}

QString MemoryService::author() {
    const QByteArray user = qgetenv("USER");
    return user.isEmpty() ? QStringLiteral("workbench") : QString::fromLocal8Bit(user);
}

void MemoryService::post(std::function<void(memory::ExperienceStore&)> work) {
    QPointer<MemoryService> self(this);
    auto store = store_;
    QMetaObject::invokeMethod(
        worker_,
        [work = std::move(work), store, self]() {
            auto report = [self](const QString& message) {
                QMetaObject::invokeMethod(self.data(), [self, message]() { if (self) emit self->failed(message); },
                                          Qt::QueuedConnection);
            };
            if (!*store) return report(tr("the memory database is not open"));
            try {
                work(**store);
            } catch (const std::exception& e) {
                report(QString::fromStdString(e.what()));
            }
        },
        Qt::QueuedConnection);
}

void MemoryService::open(const QString& dbPath, const QString& seedFile) {
    path_ = dbPath;
    open_ = false;
    QPointer<MemoryService> self(this);
    auto store = store_;
    QMetaObject::invokeMethod(
        worker_,
        [store, self, dbPath, seedFile]() {
            bool ok = true;
            QString message;
            try {
                store->reset();
                const std::filesystem::path path = dbPath.toStdString();
                const bool server = memory::DatabaseLocation::isServerUrl(dbPath.toStdString());
                if (!server && path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
                const bool existed = !server && std::filesystem::exists(path);
                *store = std::make_unique<memory::ExperienceStore>(path);
                const bool fresh = server ? (*store)->count() == 0 : !existed;
                if (self) self->listen(dbPath);
                if (fresh && !seedFile.isEmpty() && QFileInfo::exists(seedFile)) {
                    auto report = (*store)->importFrom(seedFile.toStdString());
                    message = tr("seeded %1 experiences from %2").arg(report.imported).arg(seedFile);
                } else {
                    message = tr("opened %1").arg(QString::fromStdString((*store)->path().string()));
                }
            } catch (const std::exception& e) {
                store->reset();
                ok = false;
                message = QString::fromStdString(e.what());
            }
            QMetaObject::invokeMethod(
                self.data(),
                [self, ok, message]() {
                    if (!self) return;
                    self->open_ = ok;
                    emit self->opened(ok, message);
                    if (ok) self->refresh();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

// Runs on the worker: a listener for the memory's server (none for a SQLite file), watched by a
// socket notifier in the worker's event loop. Each batch of changes refreshes the list once.
void MemoryService::listen(const QString& location) {
    delete notifier_;
    notifier_ = nullptr;
    listener_->reset();
    *listener_ = memory::ChangeListener::open(location.toStdString());
    if (!*listener_) return;
    if (*store_) (*listener_)->ignoreChangesOf((*store_)->database());  // our own changes refresh already
    auto* notifier = new QSocketNotifier(qintptr((*listener_)->socket()), QSocketNotifier::Read, worker_);
    notifier_ = notifier;
    QPointer<MemoryService> self(this);
    auto store = store_;
    auto listener = listener_;
    connect(notifier, &QSocketNotifier::activated, worker_, [self, store, listener]() {
        if (!*listener || !*store) return;
        std::set<std::int64_t> ids;
        std::vector<std::tuple<qint64, QString, QString>> told;
        try {
            ids = (*listener)->takeChanges();
            for (const std::int64_t id : ids) {
                const auto last = (*store)->auditLog(id, 1);
                told.emplace_back(id, last.empty() ? QString() : QString::fromStdString(last.front().author),
                                  last.empty() ? QString() : QString::fromStdString(last.front().action));
            }
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(self.data(), [self, message]() { if (self) emit self->failed(message); },
                                      Qt::QueuedConnection);
            return;
        }
        if (ids.empty()) return;
        QMetaObject::invokeMethod(self.data(), [self, told]() {
            if (!self) return;
            for (const auto& [id, by, what] : told) emit self->changedElsewhere(id, by, what);
            self->refresh();
        }, Qt::QueuedConnection);
    });
}

void MemoryService::refresh() {
    QPointer<MemoryService> self(this);
    post([self](memory::ExperienceStore& store) {
        auto all = std::make_shared<std::vector<memory::ExperienceSummary>>(store.list());
        int pending = 0, flagged = 0;
        for (const auto& e : *all) {
            pending += awaitsReview(e.status);
            flagged += e.flagged();
        }
        ExperienceList list = all;
        QMetaObject::invokeMethod(self.data(), [self, list, pending, flagged]() {
            if (self) emit self->listed(list, pending, flagged);
        }, Qt::QueuedConnection);
    });
}

void MemoryService::loadDetail(qint64 id) {
    QPointer<MemoryService> self(this);
    post([self, id](memory::ExperienceStore& store) {
        auto d = std::make_shared<ExperienceDetail>();
        auto found = store.find(id);
        if (!found) return;
        d->experience = *found;
        d->stats = store.stats(id);
        d->revisions = store.revisions(id);
        d->qHistory = store.qHistory(id);
        for (auto& r : store.ledger().retrievalsOf(id))
            if (r.reward && (r.declared.value_or(false) || r.evidenced.value_or(false))) d->adoptions.push_back(std::move(r));
        std::shared_ptr<const ExperienceDetail> detail = d;
        QMetaObject::invokeMethod(self.data(), [self, id, detail]() {
            if (self) emit self->detailLoaded(id, detail);
        }, Qt::QueuedConnection);
    });
}

void MemoryService::curate(qint64 id, const QString& what, std::function<void(memory::ExperienceStore&)> op) {
    QPointer<MemoryService> self(this);
    post([self, id, what, op = std::move(op)](memory::ExperienceStore& store) {
        op(store);
        QMetaObject::invokeMethod(self.data(), [self, id, what]() {
            if (!self) return;
            emit self->changed(id, what);
            self->refresh();
        }, Qt::QueuedConnection);
    });
}

namespace {
memory::ChangeNote note(const QString& reason) {
    return {MemoryService::author().toStdString(), reason.toStdString()};
}
} // namespace

void MemoryService::approve(qint64 id, const QString& reason) {
    curate(id, tr("approved"), [id, reason](memory::ExperienceStore& s) { s.approve(id, note(reason)); });
}
void MemoryService::reject(qint64 id, const QString& reason) {
    curate(id, tr("rejected"), [id, reason](memory::ExperienceStore& s) { s.reject(id, note(reason)); });
}
void MemoryService::archive(qint64 id, const QString& reason) {
    curate(id, tr("archived"), [id, reason](memory::ExperienceStore& s) { s.archive(id, note(reason)); });
}
void MemoryService::remove(qint64 id) {
    curate(id, tr("deleted"), [id](memory::ExperienceStore& s) { s.remove(id); });
}
void MemoryService::setPinned(qint64 id, bool pinned) {
    curate(id, pinned ? tr("pinned") : tr("unpinned"),
           [id, pinned](memory::ExperienceStore& s) { s.setPinned(id, pinned, note({})); });
}
void MemoryService::edit(qint64 id, const memory::ExperiencePatch& patch, const QString& reason) {
    curate(id, tr("edited"), [id, patch, reason](memory::ExperienceStore& s) { s.edit(id, patch, note(reason)); });
}
void MemoryService::merge(qint64 kept, qint64 absorbed) {
    curate(kept, tr("merged #%1 into #%2").arg(absorbed).arg(kept),
           [kept, absorbed](memory::ExperienceStore& s) { s.merge(kept, absorbed, note({})); });
}

void MemoryService::importFile(const QString& file) {
    QPointer<MemoryService> self(this);
    post([self, file](memory::ExperienceStore& store) {
        auto report = store.importFrom(file.toStdString());
        QString message = tr("imported %1, skipped %2 already present, renumbered %3")
                              .arg(report.imported).arg(report.skipped).arg(report.renumbered);
        QMetaObject::invokeMethod(self.data(), [self, message]() {
            if (!self) return;
            emit self->info(message);
            self->refresh();
        }, Qt::QueuedConnection);
    });
}

void MemoryService::exportFile(const QString& file) {
    QPointer<MemoryService> self(this);
    post([self, file](memory::ExperienceStore& store) {
        int n = store.exportTo(file.toStdString());
        QString message = tr("exported %1 experiences to %2").arg(n).arg(file);
        QMetaObject::invokeMethod(self.data(), [self, message]() { if (self) emit self->info(message); },
                                  Qt::QueuedConnection);
    });
}

} // namespace sage::ui

// The experience memory for the GUI: one ExperienceStore (one SQLite or PostgreSQL connection) that
// lives on its own worker thread, as connections belong to one thread. Every query and curation
// runs there; results come back to the GUI thread through queued calls and signals, so a big
// list or import never blocks the window.
//
// On a shared PostgreSQL memory (issue 16) the worker also listens for other clients' changes
// (memory::ChangeListener, LISTEN/NOTIFY): the list refreshes by itself and changedElsewhere()
// says who did what, so an approval in one workbench shows in another without a restart.
#pragma once

#include "sage_memory/ChangeListener.h"
#include "sage_memory/ExperienceStore.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>
#include <vector>

namespace sage::ui {

struct ExperienceDetail {
    memory::Experience experience;
    memory::ExperienceStats stats;
    std::vector<memory::Revision> revisions;
    std::vector<memory::ValuePoint> qHistory;
    // The iterations that adopted it (declared or evidenced) and what came of each: where it helped.
    std::vector<memory::RetrievalRecord> adoptions;
};

using ExperienceList = std::shared_ptr<const std::vector<memory::ExperienceSummary>>;

class MemoryService : public QObject {
    Q_OBJECT
public:
    explicit MemoryService(QObject* parent = nullptr);
    ~MemoryService() override;

    // Opens (creating) the file on the worker; a file that did not exist is seeded from
    // `seedFile` when given. Emits opened(). Safe to call again with another path.
    void open(const QString& dbPath, const QString& seedFile = {});
    QString path() const { return path_; }
    bool isOpen() const { return open_; }

    // Runs fn(store) on the worker; `done(result)` then runs on `context`'s thread (the GUI),
    // unless `context` is gone. A MemoryError or other exception goes to `failed` instead.
    template <class R>
    void run(std::function<R(memory::ExperienceStore&)> fn, QObject* context, std::function<void(R)> done) {
        QPointer<QObject> guard(context);
        QPointer<MemoryService> self(this);
        post([fn = std::move(fn), done = std::move(done), guard, self](memory::ExperienceStore& store) {
            auto result = std::make_shared<R>(fn(store));
            if (!guard) return;
            QMetaObject::invokeMethod(guard.data(), [done, result, guard]() { if (guard) done(*result); },
                                      Qt::QueuedConnection);
        });
    }

    // Common operations. Each curation refreshes the list afterwards and emits changed(id).
    void refresh();
    void loadDetail(qint64 id);
    void approve(qint64 id, const QString& reason = {});
    void reject(qint64 id, const QString& reason = {});
    void archive(qint64 id, const QString& reason = {});
    void remove(qint64 id);
    void setPinned(qint64 id, bool pinned);
    void edit(qint64 id, const memory::ExperiencePatch& patch, const QString& reason = {});
    void merge(qint64 kept, qint64 absorbed);
    void importFile(const QString& file);
    void exportFile(const QString& file);
    static QString author();

signals:
    void opened(bool ok, const QString& message);
    void listed(sage::ui::ExperienceList entries, int pending, int flagged);
    void detailLoaded(qint64 id, std::shared_ptr<const sage::ui::ExperienceDetail> detail);
    void changed(qint64 id, const QString& what);
    // Another client changed entry `id`; `by` and `what` come from the audit log ("" when the
    // change was not a curation, e.g. learned values of a running agent).
    void changedElsewhere(qint64 id, const QString& by, const QString& what);
    void failed(const QString& message);
    void info(const QString& message);

private:
    void post(std::function<void(memory::ExperienceStore&)> work);
    void curate(qint64 id, const QString& what, std::function<void(memory::ExperienceStore&)> op);
    void listen(const QString& location);  // on the worker

    QThread thread_;
    QObject* worker_ = nullptr;                      // lives on thread_
    std::shared_ptr<std::unique_ptr<memory::ExperienceStore>> store_;  // touched only on thread_
    std::shared_ptr<std::unique_ptr<memory::ChangeListener>> listener_;  // touched only on thread_
    QObject* notifier_ = nullptr;  // the listener's QSocketNotifier, on thread_
    QString path_;
    bool open_ = false;
};

} // namespace sage::ui

Q_DECLARE_METATYPE(sage::ui::ExperienceList)
Q_DECLARE_METATYPE(std::shared_ptr<const sage::ui::ExperienceDetail>)

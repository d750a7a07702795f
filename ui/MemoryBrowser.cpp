#include "ui/MemoryBrowser.h"

#include "ui/ExperienceDetailView.h"
#include "ui/ExperienceEditDialog.h"
#include "ui/ExperienceFilterProxy.h"
#include "ui/ExperienceTableModel.h"
#include "ui/MemoryService.h"
#include "ui/ReviewQueue.h"

#include <QComboBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sage::ui {

namespace {
template <class E> QComboBox* filterCombo(const QString& any, QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->addItem(any, QString());
    for (auto name : memory::EnumNames<E>::names) {
        const QString n = QString::fromUtf8(name.data(), qsizetype(name.size()));
        box->addItem(n, n);
    }
    return box;
}
} // namespace

MemoryBrowser::MemoryBrowser(MemoryService* service, QWidget* parent) : QWidget(parent), service_(service) {
    model_ = new ExperienceTableModel(this);
    proxy_ = new ExperienceFilterProxy(this);
    proxy_->setSourceModel(model_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(buildFilterBar());
    layout->addWidget(text_);
    layout->addWidget(buildTableAndDetail(), 1);
    layout->addLayout(buildActionButtons());
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(summary_);
    connectTextSearch();
    connectService();
    updateButtons();
}

// The review-queue button, the status/stage/kind/category filters and the search line.
QHBoxLayout* MemoryBrowser::buildFilterBar() {
    auto* filters = new QHBoxLayout;
    pendingButton_ = new QToolButton(this);
    pendingButton_->setObjectName(QStringLiteral("pendingQueueButton"));
    pendingButton_->setCheckable(true);
    pendingButton_->setText(tr("Review queue (0)"));
    pendingButton_->setToolTip(tr("Show only entries waiting for review (%1)").arg(reviewQueueStatuses().join(QStringLiteral(", "))));
    status_ = filterCombo<memory::ExperienceStatus>(tr("any status"), this);
    stage_ = filterCombo<memory::Stage>(tr("any stage"), this);
    kind_ = filterCombo<memory::ExperienceKind>(tr("any kind"), this);
    category_ = new QComboBox(this);
    category_->addItem(tr("any category"), QString());
    text_ = new QLineEdit(this);
    text_->setObjectName(QStringLiteral("experienceSearch"));
    text_->setPlaceholderText(tr("Search title, trigger and content"));
    text_->setClearButtonEnabled(true);
    filters->addWidget(pendingButton_);
    for (QComboBox* box : {status_, stage_, kind_, category_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);  // the dock may be narrow
        box->setMinimumContentsLength(7);
        filters->addWidget(box);
    }
    connectFilter(status_, [this](const QString& v) { proxy_->setStatus(v); });
    connectFilter(stage_, [this](const QString& v) { proxy_->setStage(v); });
    connectFilter(kind_, [this](const QString& v) { proxy_->setKind(v); });
    connectFilter(category_, [this](const QString& v) { proxy_->setCategory(v); });
    connect(pendingButton_, &QToolButton::toggled, this, &MemoryBrowser::showPendingQueue);
    return filters;
}

QSplitter* MemoryBrowser::buildTableAndDetail() {
    auto* split = new QSplitter(Qt::Horizontal, this);
    view_ = new QTableView(split);
    view_->setObjectName(QStringLiteral("experienceTable"));
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(ExperienceTableModel::IdColumn, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(20);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setColumnWidth(ExperienceTableModel::IdColumn, 40);
    view_->setColumnWidth(ExperienceTableModel::TitleColumn, 280);
    view_->setColumnWidth(ExperienceTableModel::StatusColumn, 70);
    view_->setColumnWidth(ExperienceTableModel::StageColumn, 65);
    view_->setColumnWidth(ExperienceTableModel::QColumn, 55);
    detail_ = new ExperienceDetailView(split);
    split->addWidget(view_);
    split->addWidget(detail_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({500, 500});
    return split;
}

QGridLayout* MemoryBrowser::buildActionButtons() {
    auto* actions = new QGridLayout;
    int placed = 0;
    auto button = [this, actions, &placed](const QString& text, const char* name, const QString& tip, bool perEntry) {
        auto* b = new QPushButton(text, this);
        b->setObjectName(QString::fromLatin1(name));
        b->setToolTip(tip);
        actions->addWidget(b, placed / 5, placed % 5);
        ++placed;
        if (perEntry) entryButtons_ << b;
        return b;
    };
    auto* approve = button(tr("Approve"), "approveButton", tr("The agent sees approved entries"), true);
    auto* reject = button(tr("Reject"), "rejectButton", tr("Keep the entry but never show it to the agent"), true);
    auto* edit = button(tr("Edit…"), "editButton", tr("Edit text and trigger (a revision is kept)"), true);
    auto* merge = button(tr("Merge…"), "mergeButton", tr("Fold another entry into this one (select two rows)"), true);
    auto* archive = button(tr("Archive"), "archiveButton", tr("Retire the entry"), true);
    pinButton_ = button(tr("Pin"), "pinButton", tr("Pinned entries are always retrieved when they match"), true);
    auto* remove = button(tr("Delete"), "deleteButton", tr("Delete the entry and its history (cannot be undone)"), true);
    auto* import = button(tr("Import…"), "importButton", tr("Import a JSON Lines file"), false);
    auto* exportB = button(tr("Export…"), "exportButton", tr("Export every entry as JSON Lines"), false);
    auto* refresh = button(tr("Refresh"), "refreshButton", tr("Reload from the database"), false);
    connect(approve, &QPushButton::clicked, this, &MemoryBrowser::approveSelected);
    connect(reject, &QPushButton::clicked, this, &MemoryBrowser::rejectSelected);
    connect(edit, &QPushButton::clicked, this, &MemoryBrowser::editSelected);
    connect(merge, &QPushButton::clicked, this, &MemoryBrowser::mergeSelected);
    connect(archive, &QPushButton::clicked, this, &MemoryBrowser::archiveSelected);
    connect(pinButton_, &QPushButton::clicked, this, &MemoryBrowser::togglePinSelected);
    connect(remove, &QPushButton::clicked, this, &MemoryBrowser::deleteSelected);
    connect(import, &QPushButton::clicked, this, &MemoryBrowser::importFile);
    connect(exportB, &QPushButton::clicked, this, &MemoryBrowser::exportFile);
    connect(refresh, &QPushButton::clicked, service_, &MemoryService::refresh);
    return actions;
}

// The search line filters the loaded rows at once and, after a pause in typing, asks the store's
// full-text search over the content too.
void MemoryBrowser::connectTextSearch() {
    textDebounce_ = new QTimer(this);
    textDebounce_->setSingleShot(true);
    textDebounce_->setInterval(250);

    connect(text_, &QLineEdit::textChanged, this, [this](const QString& t) {
        proxy_->setText(t);
        textDebounce_->start();
    });
    connect(textDebounce_, &QTimer::timeout, this, [this]() {
        const std::string text = text_->text().trimmed().toStdString();
        if (text.empty()) return;
        // Full-text search over the content too, on the memory thread.
        service_->run<QSet<qint64>>(
            [text](memory::ExperienceStore& s) {
                memory::ExperienceFilter f;
                f.text = text;
                QSet<qint64> ids;
                for (const auto& e : s.list(f)) ids.insert(e.id);
                return ids;
            },
            this, [this, text](QSet<qint64> ids) {
                if (text_->text().trimmed().toStdString() == text) proxy_->setTextMatches(ids);
            });
    });

}

void MemoryBrowser::connectService() {
    connect(service_, &MemoryService::listed, this, &MemoryBrowser::showEntries);
    connect(service_, &MemoryService::detailLoaded, this, [this](qint64 id, std::shared_ptr<const ExperienceDetail> d) {
        if (id == selectedId()) detail_->setDetail(d);
    });
    connect(service_, &MemoryService::changed, this, [this](qint64 id, const QString& what) {
        emit message(tr("Experience #%1 %2").arg(id).arg(what));
        if (id == selectedId()) service_->loadDetail(id);
    });
    connect(service_, &MemoryService::failed, this, [this](const QString& m) { emit message(tr("Memory: %1").arg(m)); });
    connect(service_, &MemoryService::info, this, &MemoryBrowser::message);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this]() {
        updateButtons();
        const qint64 id = selectedId();
        if (id) service_->loadDetail(id);
        else detail_->clear();
    });
    connect(detail_, &ExperienceDetailView::iterationLinkActivated, this, &MemoryBrowser::iterationLinkActivated);
}

void MemoryBrowser::showEntries(ExperienceList entries, int pending, int flagged) {
    const qint64 keep = selectedId();
    const int keepRow = view_->selectionModel()->currentIndex().row();
    model_->setEntries(entries);
    const QString cat = category_->currentData().toString();
    {
        QSignalBlocker block(category_);
        category_->clear();
        category_->addItem(tr("any category"), QString());
        for (const auto& c : model_->categories()) category_->addItem(c, c);
        category_->setCurrentIndex(std::max(0, category_->findData(cat)));
    }
    if (pending != pending_) {
        pending_ = pending;
        emit pendingCountChanged(pending);
    }
    pendingButton_->setText(tr("Review queue (%1)").arg(pending));
    pendingButton_->setStyleSheet(pending ? QStringLiteral("QToolButton { font-weight: bold; color: #ef6c00; }")
                                          : QString());
    summary_->setText(tr("%1 entries · %2 pending review · %3 flagged (retrieved often, rarely adopted) · %4")
                          .arg(entries ? entries->size() : 0).arg(pending).arg(flagged).arg(service_->path()));
    if (wanted_) {
        if (selectExperience(wanted_)) wanted_ = 0;
    } else if (keep && !selectIfVisible(keep)) {
        // The entry left the filter (approved or rejected in the review queue): the filter
        // stays and the entry that took its row is next.
        selectRow(std::min(keepRow, proxy_->rowCount() - 1));
    } else if (!keep && reviewQueueShown()) {
        selectRow(0);
    }
    updateButtons();
}

qint64 MemoryBrowser::selectedId() const {
    const QModelIndex current = view_->selectionModel()->currentIndex();
    const auto rows = view_->selectionModel()->selectedRows();
    const QModelIndex i = current.isValid() && view_->selectionModel()->isRowSelected(current.row(), current.parent())
                              ? current
                              : (rows.isEmpty() ? QModelIndex() : rows.first());
    return i.isValid() ? i.data(ExperienceTableModel::IdRole).toLongLong() : 0;
}

bool MemoryBrowser::selectIfVisible(qint64 id) {
    const int row = model_->rowOf(id);
    if (row < 0) return false;
    const QModelIndex i = proxy_->mapFromSource(model_->index(row, 0));
    if (i.isValid()) selectRow(i.row());
    return i.isValid();
}

void MemoryBrowser::selectRow(int row) {
    const QModelIndex i = proxy_->index(row, 0);
    if (!i.isValid()) return;
    view_->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(i);
}

bool MemoryBrowser::selectExperience(qint64 id) {
    const int row = model_->rowOf(id);
    if (row < 0) {
        wanted_ = id;
        return false;
    }
    QModelIndex i = proxy_->mapFromSource(model_->index(row, 0));
    if (!i.isValid()) {  // filtered out: clear the filters
        showPendingQueue(false);
        setStatusFilter({});
        stage_->setCurrentIndex(0);
        kind_->setCurrentIndex(0);
        category_->setCurrentIndex(0);
        text_->clear();
        i = proxy_->mapFromSource(model_->index(row, 0));
    }
    if (!i.isValid()) return false;
    view_->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(i);
    return true;
}

// A filter combo box sets one field of the proxy. Through a std::function, not a captured
// pointer to member: GCC 12's sanitizer instrumentation of that call crashed the browser on the
// first status change in the asan preset (test_memory_browser), though the object was intact.
void MemoryBrowser::connectFilter(QComboBox* box, std::function<void(const QString&)> set) {
    connect(box, &QComboBox::currentIndexChanged, this, [this, box, set = std::move(set)]() {
        const QString value = box->currentData().toString();
        set(value);
        if (box == status_) {
            QSignalBlocker block(pendingButton_);
            pendingButton_->setChecked(false);
        }
    });
}

void MemoryBrowser::setStatusFilter(const QString& status) { status_->setCurrentIndex(std::max(0, status_->findData(status))); }

void MemoryBrowser::showPendingQueue(bool on) {
    {
        QSignalBlocker block(pendingButton_);
        pendingButton_->setChecked(on);
    }
    {
        QSignalBlocker block(status_);  // the queue is a set of statuses, not one of the combo's
        status_->setCurrentIndex(0);
    }
    proxy_->setStatuses(on ? reviewQueueStatuses() : QStringList());
    if (on) selectRow(0);
}

bool MemoryBrowser::reviewQueueShown() const { return pendingButton_->isChecked(); }

void MemoryBrowser::updateButtons() {
    const qint64 id = selectedId();
    for (auto* b : entryButtons_) b->setEnabled(id != 0);
    const auto* e = model_->entry(model_->rowOf(id));
    pinButton_->setText(e && e->pinned ? tr("Unpin") : tr("Pin"));
}

void MemoryBrowser::approveSelected() {
    for (const auto& i : view_->selectionModel()->selectedRows())
        service_->approve(i.data(ExperienceTableModel::IdRole).toLongLong());
}

void MemoryBrowser::rejectSelected() {
    for (const auto& i : view_->selectionModel()->selectedRows())
        service_->reject(i.data(ExperienceTableModel::IdRole).toLongLong());
}

void MemoryBrowser::archiveSelected() {
    for (const auto& i : view_->selectionModel()->selectedRows())
        service_->archive(i.data(ExperienceTableModel::IdRole).toLongLong());
}

void MemoryBrowser::togglePinSelected() {
    const qint64 id = selectedId();
    const auto* e = model_->entry(model_->rowOf(id));
    if (e) service_->setPinned(id, !e->pinned);
}

void MemoryBrowser::editSelected() {
    const auto d = detail_->detail();
    if (!d || d->experience.id != selectedId()) return;
    ExperienceEditDialog dialog(d->experience, this);
    if (dialog.exec() != QDialog::Accepted) return;
    const auto patch = dialog.patch();
    if (patch.empty()) return;
    service_->edit(d->experience.id, patch, dialog.reason());
}

void MemoryBrowser::mergeSelected() {
    const qint64 kept = selectedId();
    if (!kept) return;
    qint64 absorbed = 0;
    for (const auto& i : view_->selectionModel()->selectedRows()) {
        const qint64 id = i.data(ExperienceTableModel::IdRole).toLongLong();
        if (id != kept) absorbed = id;
    }
    if (!absorbed) {
        bool ok = false;
        absorbed = QInputDialog::getInt(this, tr("Merge"), tr("Fold which entry into #%1?").arg(kept), 1, 1,
                                        std::numeric_limits<int>::max(), 1, &ok);
        if (!ok || absorbed == kept) return;
    }
    if (QMessageBox::question(this, tr("Merge"),
                              tr("Fold #%1 into #%2? Counters add up, Q becomes their weighted mean and #%1 is archived.")
                                  .arg(absorbed).arg(kept)) != QMessageBox::Yes)
        return;
    service_->merge(kept, absorbed);
}

void MemoryBrowser::deleteSelected() {
    const auto rows = view_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    if (QMessageBox::question(this, tr("Delete"),
                              tr("Delete %n entr(ies) with their statistics and history? This cannot be undone.", nullptr,
                                 int(rows.size()))) != QMessageBox::Yes)
        return;
    for (const auto& i : rows) service_->remove(i.data(ExperienceTableModel::IdRole).toLongLong());
}

void MemoryBrowser::importFile() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Import experiences"), QString(),
                                                   tr("JSON Lines (*.jsonl);;All files (*)"));
    if (!f.isEmpty()) service_->importFile(f);
}

void MemoryBrowser::exportFile() {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export experiences"), QStringLiteral("memory.jsonl"),
                                                   tr("JSON Lines (*.jsonl)"));
    if (!f.isEmpty()) service_->exportFile(f);
}

} // namespace sage::ui

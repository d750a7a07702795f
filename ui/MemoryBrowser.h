// The memory browser dock: the experiences in a filterable table (status, stage, kind,
// category, text), a pending-review queue with a count badge, the selected entry's detail, and
// the curation actions (approve, reject, edit, merge, archive, pin, delete, import, export).
// All database work goes through MemoryService on its worker thread.
#pragma once

#include "ui/MemoryService.h"

#include <functional>

#include <QWidget>

class QComboBox;
class QGridLayout;
class QHBoxLayout;
class QSplitter;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;
class QToolButton;

namespace sage::ui {

class ExperienceDetailView;
class ExperienceFilterProxy;
class ExperienceTableModel;
class MemoryService;

class MemoryBrowser : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBrowser(MemoryService* service, QWidget* parent = nullptr);
    ExperienceTableModel* model() const { return model_; }
    ExperienceFilterProxy* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    ExperienceDetailView* detailView() const { return detail_; }
    int pendingCount() const { return pending_; }
    qint64 selectedId() const;
    bool selectExperience(qint64 id);
    // The review queue: entries whose status awaits review (ReviewQueue.h), the first selected.
    // Approving or rejecting one keeps the queue and selects the entry that takes its row.
    void showPendingQueue(bool on);
    bool reviewQueueShown() const;
    void setStatusFilter(const QString& status);  // "" for any

public slots:
    void approveSelected();
    void rejectSelected();
    void archiveSelected();
    void editSelected();
    void mergeSelected();
    void deleteSelected();
    void togglePinSelected();
    void importFile();
    void exportFile();

signals:
    void pendingCountChanged(int pending);
    void iterationLinkActivated(qint64 run, int iteration);
    void message(const QString& text);

private:
    QHBoxLayout* buildFilterBar();
    QSplitter* buildTableAndDetail();
    QGridLayout* buildActionButtons();  // two rows of five, so that the dock can be narrow
    void connectTextSearch();
    void connectService();
    void showEntries(ExperienceList entries, int pending, int flagged);  // a fresh listing from the store
    void updateButtons();
    bool selectIfVisible(qint64 id);  // false when the id is unknown or filtered out
    void selectRow(int proxyRow);
    void connectFilter(QComboBox* box, std::function<void(const QString&)> set);
    MemoryService* service_;
    ExperienceTableModel* model_;
    ExperienceFilterProxy* proxy_;
    QTableView* view_;
    ExperienceDetailView* detail_;
    QComboBox *status_, *stage_, *kind_, *category_;
    QLineEdit* text_;
    QTimer* textDebounce_;
    QToolButton* pendingButton_;
    QLabel* summary_;
    QList<QPushButton*> entryButtons_;
    QPushButton* pinButton_;
    int pending_ = 0;
    qint64 wanted_ = 0;  // select this id once it appears
};

} // namespace sage::ui

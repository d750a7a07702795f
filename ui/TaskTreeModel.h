// The task explorer's tree: categories, their tasks (with split), each task's agent runs and
// each run's iterations. Tasks come from the core TaskSet; runs and iterations from the run store
// (handed in as plain rows by whoever loaded them off the GUI thread).
#pragma once

#include "sage_eval/Task.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace sage::ui {

struct RunRow {
    qint64 id = 0;
    QString status, policy, memoryMode, startedAt;
    int bestIteration = -1;
    int iterations = 0;
};

struct IterationRow {
    qint64 runId = 0;
    int index = 0;
    QString stage, origin, status, move;
    bool correct = false;
    quint64 cycles = 0;
};

class TaskTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum class NodeKind { Category, Task, Run, Iteration };
    enum Column { NameColumn, DetailColumn, ColumnCount };
    enum Role { KindRole = Qt::UserRole + 1, TaskNameRole, RunIdRole, IterationRole };

    explicit TaskTreeModel(QObject* parent = nullptr);
    ~TaskTreeModel() override;

    void setTasks(const eval::TaskSet& tasks);
    void setRuns(const QString& task, const std::vector<RunRow>& runs);
    void setIterations(qint64 runId, const std::vector<IterationRow>& iterations);
    QModelIndex taskIndex(const QString& task) const;
    QModelIndex runIndex(qint64 runId) const;
    QModelIndex iterationIndex(qint64 runId, int iteration) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node;
    Node* nodeOf(const QModelIndex& index) const;
    QModelIndex indexOf(const Node* node) const;
    void replaceChildren(Node* parent, std::vector<std::unique_ptr<Node>> children);
    std::unique_ptr<Node> root_;
};

} // namespace sage::ui

#include "ui/TaskTreeModel.h"

#include <map>

namespace sage::ui {

struct TaskTreeModel::Node {
    NodeKind kind = NodeKind::Category;
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    QString name, detail, tooltip, task;
    qint64 runId = 0;
    int iteration = -1;
    int row() const {
        if (!parent) return 0;
        for (size_t i = 0; i < parent->children.size(); ++i)
            if (parent->children[i].get() == this) return int(i);
        return 0;
    }
};

TaskTreeModel::TaskTreeModel(QObject* parent) : QAbstractItemModel(parent), root_(std::make_unique<Node>()) {}
TaskTreeModel::~TaskTreeModel() = default;

void TaskTreeModel::setTasks(const eval::TaskSet& tasks) {
    beginResetModel();
    root_ = std::make_unique<Node>();
    std::map<QString, Node*> categories;
    for (const auto& t : tasks.tasks) {
        QString category = t.category.empty() ? tr("uncategorised") : QString::fromStdString(t.category);
        Node*& cat = categories[category];
        if (!cat) {
            auto node = std::make_unique<Node>();
            node->kind = NodeKind::Category;
            node->name = category;
            node->parent = root_.get();
            cat = node.get();
            root_->children.push_back(std::move(node));
        }
        auto node = std::make_unique<Node>();
        node->kind = NodeKind::Task;
        node->name = QString::fromStdString(t.name);
        node->task = node->name;
        node->detail = QString::fromStdString(t.split);
        node->tooltip = QString::fromStdString(t.description);
        node->parent = cat;
        cat->children.push_back(std::move(node));
    }
    for (auto& cat : root_->children) cat->detail = tr("%n task(s)", nullptr, int(cat->children.size()));
    endResetModel();
}

void TaskTreeModel::replaceChildren(Node* parent, std::vector<std::unique_ptr<Node>> children) {
    const QModelIndex parentIndex = indexOf(parent);
    if (!parent->children.empty()) {
        beginRemoveRows(parentIndex, 0, int(parent->children.size()) - 1);
        parent->children.clear();
        endRemoveRows();
    }
    if (!children.empty()) {
        beginInsertRows(parentIndex, 0, int(children.size()) - 1);
        for (auto& c : children) c->parent = parent;
        parent->children = std::move(children);
        endInsertRows();
    }
}

void TaskTreeModel::setRuns(const QString& task, const std::vector<RunRow>& runs) {
    Node* taskNode = nodeOf(taskIndex(task));
    if (!taskNode || taskNode->kind != NodeKind::Task) return;
    std::vector<std::unique_ptr<Node>> children;
    for (const auto& r : runs) {
        auto node = std::make_unique<Node>();
        node->kind = NodeKind::Run;
        node->task = task;
        node->runId = r.id;
        node->name = tr("run %1").arg(r.id);
        node->detail = QStringLiteral("%1 · %2 · %3").arg(r.status, r.policy, r.memoryMode);
        if (r.bestIteration >= 0) node->detail += tr(" · best #%1").arg(r.bestIteration);
        node->tooltip = tr("started %1").arg(r.startedAt);
        children.push_back(std::move(node));
    }
    replaceChildren(taskNode, std::move(children));
}

void TaskTreeModel::setIterations(qint64 runId, const std::vector<IterationRow>& iterations) {
    Node* runNode = nodeOf(runIndex(runId));
    if (!runNode) return;
    std::vector<std::unique_ptr<Node>> children;
    for (const auto& it : iterations) {
        auto node = std::make_unique<Node>();
        node->kind = NodeKind::Iteration;
        node->task = runNode->task;
        node->runId = runId;
        node->iteration = it.index;
        node->name = QStringLiteral("#%1 %2").arg(it.index).arg(it.stage);
        node->detail = it.correct ? tr("correct · %1 cycles").arg(it.cycles) : it.status;
        node->tooltip = it.move;
        children.push_back(std::move(node));
    }
    replaceChildren(runNode, std::move(children));
}

QModelIndex TaskTreeModel::taskIndex(const QString& task) const {
    for (const auto& cat : root_->children)
        for (const auto& t : cat->children)
            if (t->name == task) return indexOf(t.get());
    return {};
}

QModelIndex TaskTreeModel::runIndex(qint64 runId) const {
    for (const auto& cat : root_->children)
        for (const auto& t : cat->children)
            for (const auto& r : t->children)
                if (r->runId == runId) return indexOf(r.get());
    return {};
}

QModelIndex TaskTreeModel::iterationIndex(qint64 runId, int iteration) const {
    Node* run = nodeOf(runIndex(runId));
    if (!run) return {};
    for (const auto& it : run->children)
        if (it->iteration == iteration) return indexOf(it.get());
    return {};
}

TaskTreeModel::Node* TaskTreeModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : nullptr;
}

QModelIndex TaskTreeModel::indexOf(const Node* node) const {
    if (!node || node == root_.get()) return {};
    return createIndex(node->row(), 0, const_cast<Node*>(node));
}

QModelIndex TaskTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    const Node* p = parent.isValid() ? nodeOf(parent) : root_.get();
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex TaskTreeModel::parent(const QModelIndex& child) const {
    const Node* n = nodeOf(child);
    if (!n || !n->parent || n->parent == root_.get()) return {};
    return indexOf(n->parent);
}

int TaskTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    const Node* p = parent.isValid() ? nodeOf(parent) : root_.get();
    return int(p->children.size());
}

int TaskTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant TaskTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Node* n = nodeOf(index);
    switch (role) {
    case Qt::DisplayRole: return index.column() == NameColumn ? n->name : n->detail;
    case Qt::ToolTipRole: return n->tooltip.isEmpty() ? QVariant() : n->tooltip;
    case KindRole: return int(n->kind);
    case TaskNameRole: return n->task;
    case RunIdRole: return n->runId;
    case IterationRole: return n->iteration;
    }
    return {};
}

QVariant TaskTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == NameColumn ? tr("Task") : tr("Split / status");
}

} // namespace sage::ui

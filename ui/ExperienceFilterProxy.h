// Filters the experience table by status, stage, kind, trigger category and text (all words
// must appear in the title or trigger, or the store's full-text search matched the entry); sorts numerically where the column is a number.
#pragma once

#include <QSet>
#include <QSortFilterProxyModel>

namespace sage::ui {

class ExperienceFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ExperienceFilterProxy(QObject* parent = nullptr);
    // An empty value means "any".
    void setStatus(const QString& status);
    // Any of these statuses (the review queue: ReviewQueue.h); empty means any.
    void setStatuses(const QStringList& statuses);
    void setStage(const QString& stage);
    void setKind(const QString& kind);
    void setCategory(const QString& category);
    void setText(const QString& text);
    // Entries the store's full-text search matched for the current text (content included).
    void setTextMatches(const QSet<qint64>& ids);
    QStringList statuses() const { return statuses_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QStringList statuses_;
    QString stage_, kind_, category_;
    QStringList words_;
    QSet<qint64> textMatches_;
};

} // namespace sage::ui

#include "ui/CandidateDiffView.h"

#include "ui/LineDiff.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

namespace sage::ui {

namespace {
enum { kRemoved = 0, kAdded = 1, kChanged = 2, kFiller = 3 };

QsciScintilla* makePane(QWidget* parent) {
    auto* pane = new QsciScintilla(parent);
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSize(10);
    auto* lexer = new QsciLexerCPP(pane);
    for (int style = 0; style < 128; ++style) lexer->setFont(font, style);
    pane->setLexer(lexer);
    pane->setReadOnly(true);
    pane->setMarginType(0, QsciScintilla::TextMargin);
    pane->setMarginsFont(font);
    pane->setMarginWidth(0, QStringLiteral("00000"));
    pane->setMarginWidth(1, 0);
    pane->markerDefine(QsciScintilla::Background, kRemoved);
    pane->setMarkerBackgroundColor(QColor(0xfd, 0xd8, 0xd5), kRemoved);
    pane->markerDefine(QsciScintilla::Background, kAdded);
    pane->setMarkerBackgroundColor(QColor(0xd4, 0xf4, 0xd8), kAdded);
    pane->markerDefine(QsciScintilla::Background, kChanged);
    pane->setMarkerBackgroundColor(QColor(0xff, 0xf3, 0xc4), kChanged);
    pane->markerDefine(QsciScintilla::Background, kFiller);
    pane->setMarkerBackgroundColor(QColor(0xee, 0xee, 0xee), kFiller);
    return pane;
}
} // namespace

CandidateDiffView::CandidateDiffView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    leftPick_ = new QComboBox(this);
    rightPick_ = new QComboBox(this);
    leftPick_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rightPick_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    summary_ = new QLabel(this);
    bar->addWidget(new QLabel(tr("Left:"), this));
    bar->addWidget(leftPick_);
    bar->addWidget(new QLabel(tr("Right:"), this));
    bar->addWidget(rightPick_);
    bar->addStretch(1);
    bar->addWidget(summary_);
    layout->addLayout(bar);
    auto* split = new QSplitter(Qt::Horizontal, this);
    left_ = makePane(split);
    right_ = makePane(split);
    split->addWidget(left_);
    split->addWidget(right_);
    layout->addWidget(split, 1);
    connect(left_->verticalScrollBar(), &QScrollBar::valueChanged, right_->verticalScrollBar(), &QScrollBar::setValue);
    connect(right_->verticalScrollBar(), &QScrollBar::valueChanged, left_->verticalScrollBar(), &QScrollBar::setValue);
    connect(leftPick_, &QComboBox::activated, this, &CandidateDiffView::compareSelected);
    connect(rightPick_, &QComboBox::activated, this, &CandidateDiffView::compareSelected);
}

void CandidateDiffView::setCandidates(const std::vector<NamedSource>& candidates) {
    const QString l = leftPick_->currentText(), r = rightPick_->currentText();
    candidates_ = candidates;
    for (auto* pick : {leftPick_, rightPick_}) {
        pick->clear();
        for (const auto& c : candidates_) pick->addItem(c.name);
    }
    if (int i = leftPick_->findText(l); i >= 0) leftPick_->setCurrentIndex(i);
    if (int i = rightPick_->findText(r); i >= 0) rightPick_->setCurrentIndex(i);
    else if (candidates_.size() > 1) rightPick_->setCurrentIndex(1);
    compareSelected();  // never blank panes under two picked names
}

void CandidateDiffView::compareSelected() {
    const int l = leftPick_->currentIndex(), r = rightPick_->currentIndex();
    if (l < 0 || r < 0 || size_t(l) >= candidates_.size() || size_t(r) >= candidates_.size()) return;
    compare(candidates_[size_t(l)], candidates_[size_t(r)]);
}

void CandidateDiffView::compare(const NamedSource& left, const NamedSource& right) {
    for (auto [pick, name] : {std::pair{leftPick_, left.name}, std::pair{rightPick_, right.name}}) {
        int i = pick->findText(name);
        if (i < 0) {
            pick->addItem(name);
            candidates_.push_back(pick == leftPick_ ? left : right);
            i = pick->count() - 1;
        }
        pick->setCurrentIndex(i);
    }
    const QStringList a = left.text.split(QLatin1Char('\n')), b = right.text.split(QLatin1Char('\n'));
    const auto rows = LineDiff::compute(a, b);
    changed_ = LineDiff::changedRows(rows);
    QStringList lt, rt;
    for (const auto& row : rows) {
        lt << (row.left >= 0 ? a[row.left] : QString());
        rt << (row.right >= 0 ? b[row.right] : QString());
    }
    left_->setText(lt.join(QLatin1Char('\n')));
    right_->setText(rt.join(QLatin1Char('\n')));
    for (auto* pane : {left_, right_}) {
        pane->clearMarginText();
        pane->markerDeleteAll();
    }
    for (int i = 0; i < int(rows.size()); ++i) {
        const auto& row = rows[size_t(i)];
        if (row.left >= 0) left_->setMarginText(i, QString::number(row.left + 1), 0);
        if (row.right >= 0) right_->setMarginText(i, QString::number(row.right + 1), 0);
        switch (row.kind) {
        case DiffRow::Kind::Same: break;
        case DiffRow::Kind::Removed:
            left_->markerAdd(i, kRemoved);
            right_->markerAdd(i, kFiller);
            break;
        case DiffRow::Kind::Added:
            left_->markerAdd(i, kFiller);
            right_->markerAdd(i, kAdded);
            break;
        case DiffRow::Kind::Changed:
            left_->markerAdd(i, kChanged);
            right_->markerAdd(i, kChanged);
            break;
        }
    }
    summary_->setText(changed_ == 0 ? tr("identical") : tr("%n changed line(s)", nullptr, changed_));
    changes_.clear();
    for (int i = 0; i < int(rows.size()); ++i) {
        const auto& row = rows[size_t(i)];
        if (row.kind == DiffRow::Kind::Same) continue;
        int column = 0;  // a changed line: where the two versions part
        if (row.kind == DiffRow::Kind::Changed) {
            const QString &l = a[row.left], &r = b[row.right];
            while (column < l.size() && column < r.size() && l[column] == r[column]) ++column;
        }
        changes_.push_back({i, column});
    }
    firstChange_ = changes_.empty() ? std::pair{-1, -1} : changes_.front();
    scrollToFirstChange();
}

void CandidateDiffView::scrollToFirstChange() {
    const int row = firstChange_.first;
    if (row < 0) return;
    for (QsciScintilla* pane : {left_, right_}) {
        pane->setFirstVisibleLine(std::max(0, row - 3));
        // Changed values far right on long lines (a constant's new value): the view starts a few
        // characters before the rightmost point where a change on the first screen begins.
        int column = 0, columnRow = row;
        for (const auto& [r, c] : changes_)
            if (r < row - 3 + pane->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN) && c > column) {
                column = c;
                columnRow = r;
            }
        // Scrolled only when the change and a few characters of it would not show from column 0.
        const QString line = pane->text(columnRow);
        auto widthOf = [pane](const QString& text) {
            const QByteArray bytes = text.toUtf8();
            return pane->SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH, long(QsciScintillaBase::STYLE_DEFAULT),
                                       bytes.constData());
        };
        const int textArea = pane->viewport()->width() - pane->marginWidth(0);
        const bool offScreen = widthOf(line.left(column + 12)) > textArea;
        pane->SendScintilla(QsciScintillaBase::SCI_SETXOFFSET, offScreen ? widthOf(line.left(std::max(0, column - 8))) : 0L);
    }
}

bool CandidateDiffView::firstChangeInView() const {
    const auto [row, column] = firstChange_;
    if (row < 0) return true;
    for (const QsciScintilla* pane : {left_, right_}) {
        const long position = pane->positionFromLineIndex(row, std::min(column, int(pane->text(row).size())));
        const long x = pane->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, position);
        if (x < pane->marginWidth(0) || x > pane->viewport()->width() - 8) return false;
    }
    return true;
}

long CandidateDiffView::horizontalOffset() const {
    long offset = 0;
    for (const QsciScintilla* pane : {left_, right_})
        offset = std::max(offset, long(pane->SendScintilla(QsciScintillaBase::SCI_GETXOFFSET)));
    return offset;
}

QString CandidateDiffView::leftText() const { return left_->text(); }
QString CandidateDiffView::rightText() const { return right_->text(); }

} // namespace sage::ui

#include "ui/KernelEditor.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscistyle.h>

#include <QFontDatabase>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace sage::ui {

namespace {
QColor heatColour(int level) {  // 1..8: pale yellow to deep red
    const double t = (level - 1) / double(KernelEditor::kHeatLevels - 1);
    return QColor::fromHsvF(0.16 * (1.0 - t), 0.25 + 0.7 * t, 1.0 - 0.2 * t);
}
} // namespace

KernelEditor::KernelEditor(QWidget* parent) : QsciScintilla(parent) {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSize(10);
    auto* lexer = new QsciLexerCPP(this);
    lexer->setDefaultFont(font);
    lexer->setFont(font);
    for (int style = 0; style < 128; ++style) lexer->setFont(font, style);
    lexer->setFoldComments(true);
    lexer->setFoldCompact(false);
    setLexer(lexer);
    setUtf8(true);
    setTabWidth(4);
    setIndentationsUseTabs(false);
    setAutoIndent(true);
    setBraceMatching(SloppyBraceMatch);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf4, 0xf7, 0xfb));
    setEdgeMode(EdgeLine);
    setEdgeColumn(120);
    setEdgeColor(QColor(0xe0, 0xe0, 0xe0));

    setMarginType(LineNumberMargin, QsciScintilla::NumberMargin);
    setMarginLineNumbers(LineNumberMargin, true);
    setMarginsFont(font);
    setMarginWidth(LineNumberMargin, QStringLiteral("00000"));
    setMarginType(MarkMargin, SymbolMargin);
    setMarginWidth(MarkMargin, 16);
    setMarginSensitivity(MarkMargin, true);
    setMarginMarkerMask(MarkMargin, (1 << kErrorMarker) | (1 << kWarningMarker) | (1 << kNoteMarker));
    setMarginType(HeatMargin, SymbolMargin);
    setMarginWidth(HeatMargin, 10);
    setMarginMarkerMask(HeatMargin, ((1 << kHeatLevels) - 1) << kHeatMarker0);
    setFolding(BoxedTreeFoldStyle, FoldMargin);
    setMarginMarkerMask(LineNumberMargin, 0);

    markerDefine(Circle, kErrorMarker);
    setMarkerBackgroundColor(QColor(0xd3, 0x2f, 0x2f), kErrorMarker);
    setMarkerForegroundColor(QColor(0x8e, 0x00, 0x00), kErrorMarker);
    markerDefine(Circle, kWarningMarker);
    setMarkerBackgroundColor(QColor(0xff, 0xb3, 0x00), kWarningMarker);
    setMarkerForegroundColor(QColor(0xa0, 0x70, 0x00), kWarningMarker);
    markerDefine(SmallRectangle, kNoteMarker);
    setMarkerBackgroundColor(QColor(0x42, 0x85, 0xf4), kNoteMarker);
    markerDefine(Background, kJumpMarker);
    setMarkerBackgroundColor(QColor(0xff, 0xf5, 0x9d), kJumpMarker);
    for (int level = 1; level <= kHeatLevels; ++level) {
        markerDefine(FullRectangle, kHeatMarker0 + level - 1);
        setMarkerBackgroundColor(heatColour(level), kHeatMarker0 + level - 1);
        setMarkerForegroundColor(heatColour(level), kHeatMarker0 + level - 1);
    }
    setAnnotationDisplay(AnnotationBoxed);

    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &KernelEditor::showHeatTip);
    connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [](int, int, int) { QToolTip::hideText(); });
    connect(this, &QsciScintilla::textChanged, this, [this]() {
        ++revision_;
        emit revisionChanged(revision_);
    });
}

void KernelEditor::setSource(const QString& text) {
    clearMarks();
    clearHeat();
    setText(text);  // textChanged bumps the revision
    setModified(false);
}

void KernelEditor::clearMarks() {
    markerDeleteAll(kErrorMarker);
    markerDeleteAll(kWarningMarker);
    markerDeleteAll(kNoteMarker);
    clearAnnotations();
    marks_.clear();
}

void KernelEditor::setMarks(const std::vector<EditorMark>& marks) {
    clearMarks();
    marks_ = marks;
    static const QsciStyle errorStyle(-1, QStringLiteral("sage-error"), QColor(0x8e, 0x00, 0x00),
                                      QColor(0xfd, 0xec, 0xea), font());
    static const QsciStyle warningStyle(-1, QStringLiteral("sage-warning"), QColor(0x6d, 0x4c, 0x00),
                                        QColor(0xff, 0xf8, 0xe1), font());
    static const QsciStyle noteStyle(-1, QStringLiteral("sage-note"), QColor(0x1a, 0x3e, 0x7a),
                                     QColor(0xe8, 0xf0, 0xfe), font());
    std::map<int, std::pair<QStringList, int>> byLine;  // line -> messages, worst severity (0 error)
    for (const auto& m : marks) {
        if (m.line <= 0 || m.line > lines()) continue;
        const int rank = int(m.severity);  // Error, Warning, Note: worst first
        auto& entry = byLine[m.line - 1];
        if (entry.first.isEmpty()) entry.second = rank;
        entry.second = std::min(entry.second, rank);
        entry.first << QStringLiteral("%1: %2").arg(QString::fromUtf8(toolchain::toString(m.severity).data()), m.message);
    }
    for (const auto& [line, entry] : byLine) {
        markerAdd(line, entry.second == 0 ? kErrorMarker : entry.second == 1 ? kWarningMarker : kNoteMarker);
        annotate(line, entry.first.join(QLatin1Char('\n')),
                 entry.second == 0 ? errorStyle : entry.second == 1 ? warningStyle : noteStyle);
    }
}

void KernelEditor::clearHeat() {
    for (int level = 0; level < kHeatLevels; ++level) markerDeleteAll(kHeatMarker0 + level);
    heat_.clear();
    heatMax_ = 0;
}

void KernelEditor::setHeat(const std::vector<LineHeat>& heat) {
    clearHeat();
    heat_.assign(size_t(std::max(lines(), 0)), 0);
    for (const auto& h : heat)
        if (h.line > 0 && h.line <= int(heat_.size())) heat_[size_t(h.line - 1)] += h.cycles;
    heatMax_ = heat_.empty() ? 0 : *std::max_element(heat_.begin(), heat_.end());
    for (int line = 1; line <= int(heat_.size()); ++line)
        if (int level = heatLevel(line)) markerAdd(line - 1, kHeatMarker0 + level - 1);
}

int KernelEditor::heatLevel(int line) const {
    if (heatMax_ == 0 || line <= 0 || line > int(heat_.size())) return 0;
    const quint64 c = heat_[size_t(line - 1)];
    if (c == 0) return 0;
    // Logarithmic: a line with 1/1000 of the hottest line's cycles still shows.
    const double t = std::log10(1.0 + 999.0 * double(c) / double(heatMax_)) / 3.0;
    return std::clamp(int(std::ceil(t * kHeatLevels)), 1, kHeatLevels);
}

quint64 KernelEditor::heatCycles(int line) const {
    return line > 0 && line <= int(heat_.size()) ? heat_[size_t(line - 1)] : 0;
}

void KernelEditor::showHeatTip(int position, int x, int y) {
    int width = 0;
    for (int m = 0; m <= FoldMargin; ++m) width += marginWidth(m);
    if (x > width || heat_.empty()) return;
    const int line = int(SendScintilla(SCI_LINEFROMPOSITION, SendScintilla(SCI_POSITIONFROMPOINT, 0UL, long(y)))) + 1;
    Q_UNUSED(position);
    const quint64 c = heatCycles(line);
    if (c == 0) return;
    QToolTip::showText(mapToGlobal(QPoint(x, y)),
                       tr("line %1: %2 cycles (%3% of the hottest line)")
                           .arg(line).arg(c).arg(100.0 * double(c) / double(heatMax_), 0, 'f', 1),
                       this);
}

void KernelEditor::goToLine(int line, int column) {
    line = std::clamp(line, 1, std::max(1, lines()));
    setCursorPosition(line - 1, std::max(0, column - 1));
    ensureLineVisible(line - 1);
    markerDeleteAll(kJumpMarker);
    const int handle = markerAdd(line - 1, kJumpMarker);
    QTimer::singleShot(1500, this, [this, handle]() { markerDeleteHandle(handle); });
}

int KernelEditor::cursorLine() const {
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    return line + 1;
}

} // namespace sage::ui

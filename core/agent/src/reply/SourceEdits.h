// Edits a model may send instead of a whole file: SEARCH/REPLACE blocks (aider style) and
// unified-diff hunks, applied to the parent candidate. A SEARCH that does not match the parent
// exactly (or, failing that, line by line ignoring indentation and trailing blanks) is an error
// that names the block and its first line, so the model can be told what to fix.
#pragma once

#include <string>
#include <vector>

namespace sage::agent::reply {

struct SourceEdit {
    std::string search, replace;
};

// SEARCH/REPLACE blocks anywhere in `text` (inside or outside fences):
//   <<<<<<< SEARCH / ...old lines... / ======= / ...new lines... / >>>>>>> REPLACE
// `error` is set when a block is opened but not completed.
std::vector<SourceEdit> findSearchReplace(const std::string& text, std::string& error);

// The hunks of a unified diff as edits (context and '-' lines form the SEARCH, context and '+'
// lines the REPLACE). Empty when `text` holds no hunk.
std::vector<SourceEdit> editsFromUnifiedDiff(const std::string& text);

// True when the text reads as a unified diff (hunk headers or ---/+++ file headers).
bool looksLikeUnifiedDiff(const std::string& text);

struct EditResult {
    bool ok = false;
    std::string source, error;
};

// Models copy the prompt's "  12 | " line numbers: when every non-blank line of `lines` carries
// one, they are removed (a bare "12 |" becomes an empty line) and true is returned.
bool stripCopiedLineNumbers(std::vector<std::string>& lines);

// A line that stands for code the model left out ("// ... rest unchanged", "/* existing code */"):
// a file holding one would not compile as sent.
bool isPlaceholderLine(const std::string& line);

// Applies every edit in order to `parent`.
EditResult applyEdits(const std::string& parent, const std::vector<SourceEdit>& edits);

} // namespace sage::agent::reply

// Files a command writes because the user named them (--out, --trace, --csv, --export-best): the
// path is checked before any work starts, and the file is written whole at the end (issue 31).
//
//   OutputFile out = OutputFile::prepare(o->out, "--out");  // creates missing folders; exit 2 if it cannot
//   ... the long work ...
//   out.write(report.dump(2) + "\n");                       // temp file + rename; exit 4 if that fails
//
// Missing folders are created (a Slurm shard's report folder, `runs/exp4/`), so a command never
// finishes with exit 0 having written nothing. A path that is a folder, lies under a file, or
// cannot be created or written is refused before the work, naming the path, the option and why.
#pragma once

#include <string>
#include <string_view>

namespace sage::cli {

// Exit status when a named output file cannot be written at the end of the work.
constexpr int kExitOutputNotWritten = 4;

class OutputFile {
  public:
    // An empty path is "not asked for": write() then does nothing.
    static OutputFile prepare(const std::string& path, std::string_view option);

    bool requested() const { return !path_.empty(); }
    const std::string& path() const { return path_; }
    void write(const std::string& text) const;

  private:
    OutputFile(std::string path, std::string option) : path_(std::move(path)), option_(std::move(option)) {}
    std::string path_;
    std::string option_;
};

} // namespace sage::cli

// What the built-in policy can read off a kernel's text without compiling it: its lines, the
// values of its integral constants, and the Unified Buffer its InitBuffer calls reserve. Used by
// the knob inference (Tunables.cpp), the structural transforms and the repairs. Kernels are hostile
// input: every function here tolerates any text and answers "unknown" (nullopt) rather than guess.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sage::agent::kernel {

std::vector<std::string> splitLines(const std::string& source);
// Inverse of splitLines; keeps a trailing newline when `like` had one.
std::string joinLines(const std::vector<std::string>& lines, const std::string& like);

// Integer constant expressions over numbers, known names, sizeof(<scalar type>), casts to
// integral types, + - * / % and parentheses. `inexact` is set when a division has a remainder.
std::optional<long long> evaluate(const std::string& expr, const std::map<std::string, long long>& names,
                                  bool* inexact = nullptr);

// Every `constexpr`/`const` integral constant whose initialiser evaluates, in file order of
// definition (later ones may use earlier ones). `inexact` lists the constants whose initialiser
// divides with a remainder (a sign that a split does not come out even).
struct ConstantTable {
    std::map<std::string, long long> values;
    std::vector<std::string> inexact;
};
ConstantTable constants(const std::string& source);

// Bytes of UB the kernel's InitBuffer calls reserve (num * round32(len) for a queue, round32(len)
// for a TBuf), or nullopt when any size depends on a value known only at run time.
std::optional<long long> ubBytes(const std::string& source);

// The pipe a statement issues on: "MTE2" (GM -> local copy), "MTE3" (local -> GM), "V" (vector
// API), "S" (scalar GetValue/SetValue), or "" when it cannot tell.
std::string pipeOfStatement(const std::string& line);

// The element type of a LocalTensor/GlobalTensor variable declared in the source, or "".
std::string elementTypeOf(const std::string& source, const std::string& variable);

// The declared type of a TQue or TBuf named `name`, spaces removed ("TQue<TPosition::VECIN,1>"),
// or "" when the source declares none.
std::string queueTypeOf(const std::string& source, const std::string& name);

// `s` without any whitespace: compares expressions written with different spacing.
std::string withoutSpaces(std::string s);

bool usesBlockSplit(const std::string& source);  // calls GetBlockIdx()

} // namespace sage::agent::kernel

// The other ops whose host code an op's host program needs. CANN's op repositories say so in the
// op's op_host/CMakeLists.txt: `add_modules_sources(... OPTYPE swi_glu ... DEPENDENCIES swi_glu_grad)`.
// Their full build links every op's op_host sources into one host library, and a build of a few
// ops adds the dependencies' sources; either way an op's tiling may use a class another op's
// op_host defines (ops-nn's SwiGlu tiling derives from swi_glu_grad's GluBaseTiling4RegBase).
#pragma once

#include <filesystem>
#include <vector>

namespace sage::eval {

// The op directories `opDir` depends on, directly or through another dependency, each once, in
// the order they are first named. A dependency is looked up as a sibling of the op directory,
// then anywhere in the op tree (a folder of that name holding op_host/), never outside the tree.
// A name that leads nowhere is left out: the compile then says what is missing.
std::vector<std::filesystem::path> hostDependenciesOf(const std::filesystem::path& opDir);

} // namespace sage::eval

// What every skeleton shares: the frame of a kernel file (tiling struct from the task's launch
// spec plus the skeleton's own fields, entry point, SAGE_HOST launch) and the type helpers.
#pragma once

#include "draft/DraftKnowledge.h"
#include "draft/VectorEmitter.h"
#include "sage_eval/Task.h"

#include <map>
#include <string>
#include <vector>

namespace sage::agent::draft {

struct TilingField {
    std::string name, type, hostValue;  // hostValue: C++ over ctx
};

struct Frame {
    const eval::Task& task;
    const npu::DeviceProfile& device;
    DraftKnowledge& knowledge;
    std::string entry, tilingStruct;
    std::vector<std::string> args;                 // kernel parameters in launch order
    std::map<std::string, std::string> argValue;   // host expression per parameter
    std::vector<TilingField> fields;               // the launch spec's, then the skeleton's
    std::vector<std::string> notes;                // what the draft did, for the rationale
    std::map<std::string, std::string> attrHost;   // hoisted lets: host C++ (double) per attribute name
    // Tensor lists (Task::listMembers): the host variable holding "_<i>" of the member being
    // launched, so that a tensor's host name is its member's; empty otherwise.
    std::string member;

    // A tensor's name as the host code passes it to ctx.gm / ctx.numel (a C string expression).
    std::string hostTensor(const std::string& name) const {
        return member.empty() ? "\"" + name + "\"" : "(std::string(\"" + name + "\") + " + member + ").c_str()";
    }

    // The host value of an attribute field: ctx.attr("a"), or a hoisted let's expression.
    std::string attrHostValue(const std::string& attr) const;

    void addField(const std::string& name, const std::string& type, const std::string& hostValue) {
        fields.push_back({name, type, hostValue});
    }
    std::string kernelParams() const;                // "GM_ADDR gm_x, ..., GM_ADDR tiling"
    std::string launch(const std::string& blockDim) const;  // ICPU_RUN_KF(...) line
    std::string tilingDecl() const;                  // struct <tilingStruct> {...};
    std::string hostFill(const std::string& var = "t") const;  // <tilingStruct> t{}; t.f = ...;
};

struct SkeletonCode {
    std::string kernel;  // classes and entry point(s)
    std::string host;    // SAGE_HOST body after the tiling is filled
};

std::string cxxType(const std::string& dtype);
size_t dtypeBytes(const std::string& dtype);
// The type the vector code computes in: the spec's compute_dtype, else float when any tensor is
// bfloat16 or the float tensors differ, else the float tensors' common type.
std::string computeType(const eval::Task& task, const std::vector<const eval::TensorDecl*>& tensors);
const eval::TensorDecl* findTensor(const eval::Task& task, const std::string& name);
std::string shapeText(const std::vector<std::string>& shape);
// A launch-spec or shape value ("N", "M*N", "Cout / groups", "alpha", "16") as C++ over the host
// context: attrs through ctx.attr, shape symbols through ctx.dim.
std::string hostExpression(const eval::Task& task, const std::string& v);
// The tiling fields draftAttr_<a> (float) of every attr and draftDim_<s> (uint32_t) of every shape
// symbol of the task's tensors; returns the symbols, sorted.
std::vector<std::string> addAttrAndDimFields(Frame& f);
// Bf16BitsToFloat / FloatToBf16Bits: scalar bfloat16 <-> float on a device without bfloat16.
std::string bf16BitsHelpers();

// Totals over every core (reduce_all, all_sum/all_mean): each of BLOCK_DIM cores leaves one
// 32-byte slot per partial sum in a workspace; a second one-core launch, <entry>_combine, adds the
// cores' slots into float variables `sums[i]` and runs `body` (which writes the outputs).
struct CombineOutput {
    std::string name, type;  // GM tensor <name>Gm_ of C++ type `type`, one element
};
// Adds the workspace to the kernel's parameters (before the tiling), passed as `ws`.
void passWorkspace(Frame& f);
// isMax[i]: the cores' partials of sums[i] are maxima (taken with fmax), else sums (added).
std::string combineKernel(const Frame& f, const std::vector<std::string>& sums, const std::vector<CombineOutput>& outputs,
                          const std::vector<std::string>& body, const std::vector<bool>& isMax = {});
// Kernel lines (in Process) that write this core's partials `sums` through partQ_ into wsGm_.
std::string storePartials(const std::vector<std::string>& sums);
// SAGE_HOST: the workspace, the main launch on BLOCK_DIM cores, then the combine launch.
std::string combineLaunch(const Frame& f, size_t sums, const std::vector<CombineOutput>& outputs);

// Binds the spec's lets in order (scalar lets become float variables).
void emitLets(VectorEmitter& em, const eval::ComputeSpec& spec);

// The host body `body` (tiling fill and launch, naming tensors through Frame::hostTensor with `var`)
// run once per tensor-list member: `var` = "_<i>" for i below ctx.dim(countDim).
std::string perMember(const std::string& countDim, const std::string& var, const std::string& body);

// Lets over attributes and numbers only, moved out of the compute spec: `task` without them and
// with them as attributes, `hostValue` their C++ over the host context (HostLets.cpp).
struct HostLets {
    eval::Task task;
    std::map<std::string, std::string> hostValue;
};
HostLets hoistHostLets(const eval::Task& task);

// One tile's compute (ElementwiseSkeleton.cpp): each input's LocalTensor `local` (GM element type
// gmType) cast to the emitter's compute type as needed and bound in inVar by its name, the lets,
// then each output's expression written into its LocalTensor.
// The emitter's environment for a tile of n elements in compute type ct: attributes as their
// members attr_<a>_, inputs as the tile variables inVar binds (filled by emitTileCompute).
VectorEmitter::Env tileEnv(const eval::Task& task, const std::string& ct, std::map<std::string, std::string>& inVar);
struct TileValue {
    std::string name, local, gmType, dtype;
};
// Compute(uint32_t n): dequeue the inputs (inQ_<name>), allocate the outputs (outQ_<name>), run
// `lines`, enqueue the outputs and free the inputs.
std::string tileComputeFunction(const std::vector<TileValue>& ins, const std::vector<TileValue>& outs,
                                const std::vector<std::string>& lines);
void emitTileCompute(VectorEmitter& em, const eval::ComputeSpec& spec, const std::vector<TileValue>& ins,
                     const std::vector<TileValue>& outs, std::map<std::string, std::string>& inVar);
// TILE_LENGTH (from the UB budget: BUFFER_NUM queue buffers per tensor in `all` plus calcBuffers
// VECCALC buffers of ct), BUFFER_NUM and ALIGN as tunable constants.
std::string tileConstants(const Frame& f, const nlohmann::json& sk, size_t calcBuffers,
                          const std::vector<const eval::TensorDecl*>& all, const std::string& ct, int bufferNum, int align);

SkeletonCode composeElementwise(Frame& f);
// elementwise with compute.split (SplitSkeleton.cpp).
SkeletonCode composeSplit(Frame& f);
SkeletonCode composeRowwise(Frame& f);
SkeletonCode composeReduceAll(Frame& f);
SkeletonCode composeAxis(Frame& f);
SkeletonCode composeMatmul(Frame& f);
SkeletonCode composeWindow(Frame& f);
// matmul with layout.diagonal_a: diag(a) x b as a row scaling (MatmulRowScale.cpp).
SkeletonCode composeRowScale(Frame& f);

} // namespace sage::agent::draft

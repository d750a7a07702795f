// Skeleton "elementwise" with compute.split: an input [rows, P * w] read as P parts [rows, w]
// along its last axis (SwiGLU's chunk(2, dim): the view makes the split axis and everything after
// it the last axis), the outputs and the other inputs [rows, w].
//
// A tile is nr rows of nc elements: whole rows, several per copy, when a row fits the tile (one
// strided DataCopyPad per part: blockCount nr, the GM gap skipping the other parts), else one row
// in chunks. In the UB each row starts on a 32-byte boundary, a pitch of whole 32-byte units of
// the narrowest tensor, so every tensor of the tile has the same element layout; the vector code
// runs over nr * pitch elements and the padding is never written back. The tiles are dealt to
// BLOCK_DIM cores by GetBlockIdx() (1 in the draft; multi_core raises it).
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

#include <algorithm>

namespace sage::agent::draft {
namespace {

struct SplitIo {
    std::string name;   // the tensor (a split input's own name for its GM tensor)
    std::string it;     // GM element type
    std::string dtype;
    std::vector<std::string> parts;  // a split input: its parts; else empty
};

// The UB gap (in 32-byte blocks) that puts each copied row of `it` at the tile's pitch.
std::string ubGap(const std::string& it) {
    return "(pitch * sizeof(" + it + ") - (nc * sizeof(" + it + ") + 31) / 32 * 32) / 32";
}

std::string copyIn(const std::vector<SplitIo>& ins) {
    std::string k = "    __aicore__ inline void CopyIn(uint32_t r, uint32_t nr, uint32_t c, uint32_t nc, uint32_t pitch) {\n";
    for (const auto& i : ins) {
        const bool split = !i.parts.empty();
        const std::string p = std::to_string(split ? i.parts.size() : 1);
        const std::vector<std::string> locals = split ? i.parts : std::vector<std::string>{i.name};
        for (size_t j = 0; j < locals.size(); ++j) {
            const std::string l = "in_" + locals[j], q = "inQ_" + locals[j];
            k += "        LocalTensor<" + i.it + "> " + l + " = " + q + ".AllocTensor<" + i.it + ">();\n";
            k += "        DataCopyPad(" + l + ", " + i.name + "Gm_[((uint64_t)r * " + p + " + " + std::to_string(j) +
                 ") * width_ + c],\n                    DataCopyExtParams{uint16_t(nr), uint32_t(nc * sizeof(" + i.it +
                 ")), uint32_t((" + p + " * width_ - nc) * sizeof(" + i.it + ")), uint32_t(" + ubGap(i.it) +
                 "), 0},\n                    DataCopyPadExtParams<" + i.it + ">{false, 0, 0, static_cast<" + i.it + ">(0)});\n";
            k += "        " + q + ".EnQue(" + l + ");\n";
        }
    }
    return k + "    }\n";
}

std::string copyOut(const std::vector<SplitIo>& outs) {
    std::string k = "    __aicore__ inline void CopyOut(uint32_t r, uint32_t nr, uint32_t c, uint32_t nc, uint32_t pitch) {\n";
    for (const auto& o : outs) {
        const std::string l = "out_" + o.name, q = "outQ_" + o.name;
        k += "        LocalTensor<" + o.it + "> " + l + " = " + q + ".DeQue<" + o.it + ">();\n";
        k += "        DataCopyPad(" + o.name + "Gm_[(uint64_t)r * width_ + c], " + l + ",\n                    DataCopyExtParams{uint16_t(nr), uint32_t(nc * sizeof(" +
             o.it + ")), uint32_t(" + ubGap(o.it) + "), uint32_t((width_ - nc) * sizeof(" + o.it + ")), 0});\n";
        k += "        " + q + ".FreeTensor(" + l + ");\n";
    }
    return k + "    }\n";
}

// The inputs (a split one with its parts) and outputs, checked against the outputs' [rows, w];
// `queued` gets one entry per UB queue (a split input once per part).
void classify(const eval::Task& task, std::vector<SplitIo>& ins, std::vector<SplitIo>& outs, std::vector<const eval::TensorDecl*>& queued) {
    const auto& outShape = task.outputs.front().shape;
    for (const auto& d : task.inputs) {
        SplitIo io{d.name, cxxType(d.dtype), d.dtype, {}};
        for (const auto& [input, parts] : task.compute.split)
            if (input == d.name) io.parts = parts;
        if (!io.parts.empty()) {
            if (d.shape.size() != 2 || d.shape[0] != outShape[0])
                throw DraftError("field 'compute.split." + d.name + "': a split input is [rows, parts * w] with the outputs' rows; it is " +
                                 shapeText(d.shape) + ", the outputs " + shapeText(outShape));
        } else if (d.shape != outShape) {
            throw DraftError("field 'compute.split': '" + d.name + "' is " + shapeText(d.shape) + "; an input that is not split has the outputs' shape " +
                             shapeText(outShape));
        }
        for (size_t j = 0; j < std::max<size_t>(io.parts.size(), 1); ++j) queued.push_back(&d);
        ins.push_back(std::move(io));
    }
    for (const auto& d : task.outputs) {
        if (d.shape != outShape)
            throw DraftError("field 'compute.split': every output has one shape; '" + d.name + "' is " + shapeText(d.shape));
        outs.push_back({d.name, cxxType(d.dtype), d.dtype, {}});
        queued.push_back(&d);
    }
}

// Process(): the tiles (a group of whole rows, or a chunk of one long row) in order, each core a
// contiguous share.
std::string processCode() {
    return "    __aicore__ inline void Process() {\n"
           "        // A row that fits the tile is copied whole, several rows per copy; a longer one in chunks.\n"
           "        // The units (a group of rows, or a chunk of a row) are dealt to the cores in contiguous shares,\n"
           "        // so one long row (a split over the first axis) spreads over the cores too.\n"
           "        const uint32_t rowPitch = (width_ + ALIGN - 1) / ALIGN * ALIGN;\n"
           "        const uint32_t rowsPerCore = (rows_ + GetBlockNum() - 1) / GetBlockNum();\n"
           "        uint32_t rowsPerTile = rowPitch <= TILE_LENGTH ? TILE_LENGTH / rowPitch : 1;\n"
           "        if (rowsPerTile > rowsPerCore) rowsPerTile = rowsPerCore;\n"
           "        if (rowsPerTile > 4095) rowsPerTile = 4095;  // DataCopyPad's blockCount\n"
           "        if (rowsPerTile == 0) rowsPerTile = 1;\n"
           "        const uint32_t chunk = rowPitch <= TILE_LENGTH ? width_ : TILE_LENGTH;\n"
           "        const uint32_t chunks = (width_ + chunk - 1) / chunk;\n"
           "        const uint64_t units = (uint64_t)(rows_ + rowsPerTile - 1) / rowsPerTile * chunks;\n"
           "        const uint64_t per = (units + GetBlockNum() - 1) / GetBlockNum();\n"
           "        const uint64_t u0 = per * GetBlockIdx() < units ? per * GetBlockIdx() : units;\n"
           "        const uint64_t u1 = u0 + per < units ? u0 + per : units;\n"
           "        for (uint64_t u = u0; u < u1; ++u) {\n"
           "            const uint32_t r = uint32_t(u / chunks) * rowsPerTile, c = uint32_t(u % chunks) * chunk;\n"
           "            const uint32_t nr = rows_ - r < rowsPerTile ? rows_ - r : rowsPerTile;\n"
           "            const uint32_t nc = width_ - c < chunk ? width_ - c : chunk;\n"
           "            const uint32_t pitch = (nc + ALIGN - 1) / ALIGN * ALIGN;\n"
           "            CopyIn(r, nr, c, nc, pitch);\n            Compute(nr * pitch);\n            CopyOut(r, nr, c, nc, pitch);\n"
           "        }\n    }\n\nprivate:\n";
}

} // namespace

SkeletonCode composeSplit(Frame& f) {
    const eval::Task& task = f.task;
    const eval::ComputeSpec& spec = task.compute;
    if (f.knowledge.idiom("tail_copy").value("method", "") != "datacopy_pad")
        throw DraftError("field 'compute.split': the split draft reads each part with a strided DataCopyPad, which " + f.device.id +
                         " does not have");
    const auto& outShape = task.outputs.front().shape;
    if (outShape.size() != 2)
        throw DraftError("field 'compute.split': the outputs are [rows, w]; '" + task.outputs.front().name + "' is " + shapeText(outShape));
    std::vector<SplitIo> ins, outs;
    std::vector<const eval::TensorDecl*> queued;  // one entry per UB queue, for the tile size
    classify(task, ins, outs, queued);
    std::vector<const eval::TensorDecl*> all;
    for (const auto* list : {&task.inputs, &task.outputs})
        for (const auto& d : *list) all.push_back(&d);
    const std::string ct = computeType(task, all);
    size_t minBytes = 4;
    for (const auto* d : all) minBytes = std::min(minBytes, dtypeBytes(d->dtype));
    const nlohmann::json& sk = f.knowledge.skeleton("elementwise");
    const int bufferNum = std::clamp(sk.value("buffer_num", 1), 1, 2);

    f.addField("draftRows", "uint32_t", hostExpression(task, outShape[0]));
    f.addField("draftWidth", "uint32_t", hostExpression(task, outShape[1]));
    for (const auto& [a, v] : task.attrs) f.addField("draftAttr_" + a, "float", f.attrHostValue(a));

    std::map<std::string, std::string> inVar;
    const VectorEmitter::Env env = tileEnv(task, ct, inVar);
    VectorEmitter em(env, f.knowledge, "compute.out");
    std::vector<TileValue> tileIns, tileOuts;
    for (const auto& i : ins)
        for (const auto& n : i.parts.empty() ? std::vector<std::string>{i.name} : i.parts) tileIns.push_back({n, "in_" + n, i.it, i.dtype});
    for (const auto& o : outs) tileOuts.push_back({o.name, "out_" + o.name, o.it, o.dtype});
    emitTileCompute(em, spec, tileIns, tileOuts, inVar);

    std::string k = "constexpr uint32_t BLOCK_DIM = 1;   // cores the tiles are dealt to\n" +
                    tileConstants(f, sk, em.buffers().size(), queued, ct, bufferNum, int(32 / minBytes));
    k += "class DraftKernel {\npublic:\n    __aicore__ inline void Init(";
    for (const auto* d : all) k += "GM_ADDR gm_" + d->name + ", ";
    k += "const " + f.tilingStruct + "& t) {\n        rows_ = t.draftRows;\n        width_ = t.draftWidth;\n";
    for (const auto& [a, v] : task.attrs) k += "        attr_" + a + "_ = t.draftAttr_" + a + ";\n";
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list) {
            const std::string p = std::to_string(std::max<size_t>(i.parts.size(), 1));
            k += "        " + i.name + "Gm_.SetGlobalBuffer((__gm__ " + i.it + "*)gm_" + i.name + ", (uint64_t)rows_ * " + p + " * width_);\n";
        }
    for (const auto& i : ins)
        for (const auto& n : i.parts.empty() ? std::vector<std::string>{i.name} : i.parts)
            k += "        pipe_.InitBuffer(inQ_" + n + ", BUFFER_NUM, TILE_LENGTH * sizeof(" + i.it + "));\n";
    for (const auto& o : outs) k += "        pipe_.InitBuffer(outQ_" + o.name + ", BUFFER_NUM, TILE_LENGTH * sizeof(" + o.it + "));\n";
    for (const auto& b : em.buffers()) k += "        pipe_.InitBuffer(" + b + ", TILE_LENGTH * sizeof(" + ct + "));\n";
    k += "    }\n" + processCode();
    k += copyIn(ins);
    k += tileComputeFunction(tileIns, tileOuts, em.lines()) + copyOut(outs);
    k += "\n    TPipe pipe_;\n";
    for (const auto& t : tileIns) k += "    TQue<TPosition::VECIN, 1> inQ_" + t.name + ";\n";
    for (const auto& t : tileOuts) k += "    TQue<TPosition::VECOUT, 1> outQ_" + t.name + ";\n";
    for (const auto& b : em.buffers()) k += "    TBuf<TPosition::VECCALC> " + b + ";\n";
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list) k += "    GlobalTensor<" + i.it + "> " + i.name + "Gm_;\n";
    for (const auto& [a, v] : task.attrs) k += "    float attr_" + a + "_ = 0;\n";
    k += "    uint32_t rows_ = 0, width_ = 0;\n};\n\n";
    k += "extern \"C\" __global__ __aicore__ void " + f.entry + "(" + f.kernelParams() + ") {\n" +
         "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", tilingData, gm_tiling);\n    DraftKernel op;\n    op.Init(";
    for (const auto* d : all) k += "gm_" + d->name + ", ";
    k += "tilingData);\n    op.Process();\n}\n";
    f.notes.push_back("Split: each part read by one strided DataCopyPad per tile, whole rows several at a time; tiles dealt to BLOCK_DIM cores.");
    return {k, f.launch("BLOCK_DIM")};
}

} // namespace sage::agent::draft

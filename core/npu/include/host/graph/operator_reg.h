// The simulator's stand-in for the CANN graph header graph/operator_reg.h: the REG_OP chains of an
// op's prototype header (op_graph/<op>_proto.h), which declare the graph-mode operator class
// (`REG_OP(Op).INPUT(x, TensorType({...})).ATTR(a, Float, 1.0).OP_END_FACTORY_REG(Op)`). Some op_host
// tilings include that header. `sage op` builds no graph, and the op definition (OpDef, OP_ADD) is
// what it reads: a chain here records the names it lists in ge::op::<Op> and nothing else. Types and
// defaults are not expanded, so a prototype may name types or values the simulator lacks.
#pragma once

#include "graph/operator.h"

#include <string>
#include <vector>

namespace ge {

// What one REG_OP chain lists, by kind: "input x", "optional_input bias", "attr epsilon", ...
struct SageOpPrototype {
    std::string type;
    std::vector<std::string> items;
    explicit SageOpPrototype(const char* t) : type(t) {}
    SageOpPrototype& Item(const char* kind, const char* name) {
        items.push_back(std::string(kind) + " " + name);
        return *this;
    }
};

} // namespace ge

#define REG_OP(x) namespace op { inline const ::ge::SageOpPrototype x = ::ge::SageOpPrototype(#x)
#define INPUT(x, ...) Item("input", #x)
#define OPTIONAL_INPUT(x, ...) Item("optional_input", #x)
#define DYNAMIC_INPUT(x, ...) Item("dynamic_input", #x)
#define OUTPUT(x, ...) Item("output", #x)
#define DYNAMIC_OUTPUT(x, ...) Item("dynamic_output", #x)
#define ATTR(x, ...) Item("attr", #x)
#define REQUIRED_ATTR(x, ...) Item("required_attr", #x)
#define GRAPH(x) Item("graph", #x)
#define DYNAMIC_GRAPH(x) Item("dynamic_graph", #x)
#define DATATYPE(x, ...) Item("datatype", #x)
#define OP_END_FACTORY_REG(x) Item("end", #x); }

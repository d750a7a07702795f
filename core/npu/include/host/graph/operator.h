// The simulator's stand-in for the CANN graph header graph/operator.h. Host code of CANN's op
// repositories includes it for ge::Operator, the graph-mode view of a node that shape inference and
// its log helpers name (ops-nn's common/inc/error_util.h includes it for the log macros only).
// `sage op` runs no graph: an Operator here is a named node, enough for a log line to name it.
#pragma once

#include "graph/types.h"

#include <string>

namespace ge {

class Operator {
public:
    Operator() = default;
    explicit Operator(const char* type) : type_(type ? type : "") {}
    Operator(const char* name, const char* type) : name_(name ? name : ""), type_(type ? type : "") {}
    graphStatus GetName(AscendString& name) const {
        name = AscendString(name_);
        return GRAPH_SUCCESS;
    }
    graphStatus GetOpType(AscendString& type) const {
        type = AscendString(type_);
        return GRAPH_SUCCESS;
    }
    std::string GetName() const { return name_; }
    std::string GetOpType() const { return type_; }

private:
    std::string name_, type_;
};

} // namespace ge

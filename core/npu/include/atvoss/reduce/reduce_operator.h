// atvoss/reduce/reduce_operator.h: the reduction operations a reduce DAG binds (Vec::ReduceSumOp
// and kin, atvoss/util/vec_reduce.h) and the promote-type helper.
#pragma once

#include "atvoss/reduce/reduce_util.h"
#include "atvoss/util/vec.h"

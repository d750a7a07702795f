// The AscendC-compatible kernel API of the simulated NPU. Kernels include only this header.
// Each API group lives in its own header; see docs/kernel-api.md for the full reference.
#pragma once

#include "kernel_types.h"
#include "kernel_macros.h"
#include "kernel_tensor.h"
#include "kernel_sync.h"
#include "kernel_pipe.h"
#include "kernel_data_copy.h"
#include "kernel_vec.h"
#include "kernel_vec_cast.h"
#include "kernel_vec_cmpsel.h"
#include "kernel_vec_mask_forms.h"
#include "kernel_vec_reduce.h"
#include "kernel_vec_reduce_regs.h"
#include "kernel_cube.h"
#include "kernel_vec_math.h"
#include "kernel_vec_math_mixed.h"
#include "kernel_vec_lib.h"
#include "kernel_vec_sort.h"
#include "kernel_vec_reg.h"
#include "kernel_vec_reg_math.h"
#include "kernel_vec_reg_layout.h"
#include "kernel_std.h"
#include "kernel_scalar_math.h"
#include "kernel_local_mem.h"
#include "kernel_compat.h"
#include "kernel_cce_compat.h"
#include "kernel_scalar_gm.h"
#include "kernel_launch.h"

#include <array>
#include <tuple>

namespace tik2 = AscendC;  // older samples spell the namespace tik2

#include "kernel_assert.h"  // last, so that no standard header included above undoes it

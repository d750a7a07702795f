// Test fixture written here: a local header of the op directory.
#pragma once
#include "kernel_operator.h"

constexpr uint32_t SCALE_OP_CHUNK = 256;

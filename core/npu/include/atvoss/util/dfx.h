// atvoss/util/dfx.h: the templates' diagnostics helpers. Kernels include it for the DAG and
// schedule headers it brings; failures of the schedules are reported through the simulator's
// kernel assertions (file:line in the launch report).
#pragma once

#include "atvoss/util/dag.h"

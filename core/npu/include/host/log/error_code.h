// The simulator's stand-in for the error-code header of CANN's op log (log/error_code.h). ops-nn's
// foreach tilings include it next to log/log.h without naming any of its codes; the report macros
// they use are in log/log.h (log/sage_op_log_reports.h).
#pragma once

#include "log/log.h"

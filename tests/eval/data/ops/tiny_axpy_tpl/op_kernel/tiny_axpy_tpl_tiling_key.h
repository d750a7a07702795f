// Test fixture written for SAGE: the tiling template of TinyAxpyTpl. The kernel is instantiated
// per value of `mode`; sage op runs the first declared value (3).
#pragma once
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(TinyAxpyTpl, ASCENDC_TPL_UINT_DECL(mode, 4, ASCENDC_TPL_UI_LIST, 3, 5));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, 3, 5)));

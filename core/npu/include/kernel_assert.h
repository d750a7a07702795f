// assert(cond[, fmt, args...]): the device's assert takes an optional printf-style message; here
// it is ASSERT(cond) (the message is not printed). Like <cassert>, this header has no include
// guard: including it again re-establishes the macro after a header that redefined assert.
#ifdef assert
#undef assert
#endif
#define assert(cond, ...) ASSERT(cond)
// ascendc_assert(expr[, fmt, args...]) (utils/debug/asc_assert.h): the same check as assert; the
// formatted message is not printed.
#ifndef ascendc_assert
#define ascendc_assert(cond, ...) ASSERT(cond)
#endif

// Test fixture written for SAGE: graph-mode shape inference that does not compile (a header no
// CANN release and no simulator ships). `sage op` must run the op anyway and say so in a note.
#include "sage_fixture/no_such_graph_header.h"

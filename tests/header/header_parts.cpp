/* header_parts.c compiled as C++ (the parts' extern "C" guards). */
#include "header_parts.c"

// Fuzz target: the DIMACS reader (gsp_graph_load with the format forced).
// Input: one options byte, then the file (see fuzz_reader.h).
#include "fuzz_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::reader_one_input(data, size, GSP_FORMAT_DIMACS, ".gr");
}

# Tests of internal host code: libgsp.a hides its C++ symbols, so these
# tests compile the sources they check themselves.
target_sources(test_region_partition PRIVATE ${PROJECT_SOURCE_DIR}/src/core/region_partition.cpp)
target_include_directories(test_region_partition PRIVATE ${PROJECT_SOURCE_DIR}/src)

// copy_lib.hpp: the host-callable interface of the copy library (library/copy_lib.hip).
// Programs link against the library and include only this header. Part of hipwb's fieldwork
// corpus.
#ifndef HIPWB_FIELDWORK_COPY_LIB_HPP
#define HIPWB_FIELDWORK_COPY_LIB_HPP

#include <cstdint>
#include <vector>

namespace copylib
{
/// Copies `words` through device memory and back; returns 0 when the round trip is exact.
int round_trip(const std::vector<uint32_t>& words, std::vector<uint32_t>& back);
} // namespace copylib

#endif

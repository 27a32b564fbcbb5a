#include "nexus_descriptor.hpp"

#include "base/error.hpp"

#include <algorithm>
#include <cstring>

namespace weft {

nexus_access nexus_access_of(weft_dep_mode m) {
  switch (m) {
  case WEFT_IN:
    return nexus_access::in;
  case WEFT_OUT:
  case WEFT_INOUT:
  case WEFT_MUTEXINOUTSET:
    return nexus_access::out;
  case WEFT_INOUTSET:
    return nexus_access::inoutset;
  default:
    fatal("nexus engine: dependence mode %d reached the engine", (int)m);
  }
}

namespace {

nexus_access merged(nexus_access a, nexus_access b) {
  return a == b ? a : nexus_access::out;
}

// Few parameters: compare each with the ones kept so far.
uint32_t merge_small(nexus_param *out, const weft_dep *deps, int ndeps) {
  uint32_t k = 0;
  for (int i = 0; i < ndeps; ++i) {
    auto addr = reinterpret_cast<uintptr_t>(deps[i].addr);
    nexus_access acc = nexus_access_of(deps[i].mode);
    uint32_t j = 0;
    while (j < k && out[j].addr != addr)
      ++j;
    if (j < k)
      out[j].acc = merged(out[j].acc, acc);
    else
      out[k++] = {addr, acc};
  }
  return k;
}

constexpr int kQuadraticLimit = 64;

} // namespace

void nexus_format(nexus_descriptor &d, const weft_dep *deps, int ndeps,
                  std::vector<nexus_param> &spill) {
  d.ndeps = static_cast<uint32_t>(ndeps);
  d.owns_more = false;
  if (ndeps <= static_cast<int>(kNexusInlineParams)) {
    d.n = merge_small(d.head, deps, ndeps);
    d.more = nullptr;
    return;
  }
  spill.resize(static_cast<std::size_t>(ndeps));
  uint32_t k;
  if (ndeps <= kQuadraticLimit) {
    k = merge_small(spill.data(), deps, ndeps);
  } else {
    // Many parameters: sort (address, position), merge equal addresses into
    // the first occurrence, then restore the order of first occurrences.
    struct item {
      uintptr_t addr;
      uint32_t pos;
      nexus_access acc;
    };
    std::vector<item> v(static_cast<std::size_t>(ndeps));
    for (int i = 0; i < ndeps; ++i)
      v[i] = {reinterpret_cast<uintptr_t>(deps[i].addr),
              static_cast<uint32_t>(i), nexus_access_of(deps[i].mode)};
    std::sort(v.begin(), v.end(), [](const item &a, const item &b) {
      return a.addr != b.addr ? a.addr < b.addr : a.pos < b.pos;
    });
    std::size_t w = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (w > 0 && v[w - 1].addr == v[i].addr)
        v[w - 1].acc = merged(v[w - 1].acc, v[i].acc);
      else
        v[w++] = v[i];
    }
    v.resize(w);
    std::sort(v.begin(), v.end(),
              [](const item &a, const item &b) { return a.pos < b.pos; });
    for (std::size_t i = 0; i < w; ++i)
      spill[i] = {v[i].addr, v[i].acc};
    k = static_cast<uint32_t>(w);
  }
  d.n = k;
  if (k <= kNexusInlineParams) {
    std::copy(spill.begin(), spill.begin() + k, d.head);
    d.more = nullptr;
  } else {
    d.more = spill.data();
  }
}

void nexus_own_params(nexus_descriptor &d) {
  if (d.n <= kNexusInlineParams || d.owns_more)
    return;
  auto *p = new nexus_param[d.n];
  std::memcpy(static_cast<void *>(p), d.more, sizeof(nexus_param) * d.n);
  d.more = p;
  d.owns_more = true;
}

void nexus_free_params(nexus_descriptor &d) {
  if (d.owns_more)
    delete[] d.more;
  d.more = nullptr;
  d.owns_more = false;
}

} // namespace weft

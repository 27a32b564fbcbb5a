#include "trace/read/sibling_dependences.hpp"

#include <algorithm>
#include <utility>

namespace weft::trace {

namespace {

void append(std::vector<uint32_t> &to, const std::vector<uint32_t> &v) {
  to.insert(to.end(), v.begin(), v.end());
}

void sort_unique(std::vector<uint32_t> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

void sibling_dependences::add(const dependence *d, uint32_t n, uint32_t self,
                              std::vector<uint32_t> &preds) {
  preds.clear();
  for (uint32_t i = 0; i < n; ++i) {
    addr_state &s = table_[d[i].address];
    switch (d[i].mode) {
    case dep_mode::in:
      append(preds, s.group);
      s.readers.push_back(self);
      break;
    case dep_mode::inoutset:
      if (s.group_is_set && s.readers.empty()) {
        append(preds, s.group_preds);
        s.group.push_back(self);
      } else {
        std::vector<uint32_t> &src = s.readers.empty() ? s.group : s.readers;
        append(preds, src);
        s.group_preds = std::move(src);
        s.group.assign(1, self);
        s.readers.clear();
        s.group_is_set = true;
      }
      break;
    default: // out, inout, mutexinoutset
      append(preds, s.readers.empty() ? s.group : s.readers);
      s.group.assign(1, self);
      s.group_preds.clear();
      s.readers.clear();
      s.group_is_set = false;
      break;
    }
  }
  std::erase(preds, self);
  sort_unique(preds);
}

void sibling_dependences::conflicts(const dependence *d, uint32_t n,
                                    std::vector<uint32_t> &preds) const {
  preds.clear();
  for (uint32_t i = 0; i < n; ++i) {
    auto it = table_.find(d[i].address);
    if (it == table_.end())
      continue;
    const addr_state &s = it->second;
    if (d[i].mode == dep_mode::in)
      append(preds, s.group);
    else if (d[i].mode == dep_mode::inoutset && s.group_is_set &&
             s.readers.empty())
      append(preds, s.group_preds);
    else
      append(preds, s.readers.empty() ? s.group : s.readers);
  }
  sort_unique(preds);
}

} // namespace weft::trace

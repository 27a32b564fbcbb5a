// The dependence table of one parent task: which earlier children a new
// child (or a taskwait on some dependences) must wait for, with OpenMP's
// rules between siblings (docs/trace-format.md). Shared by the task graph
// (trace_graph) and the streaming Perfetto export, so both see the same
// edges. Children are named by a caller-chosen uint32_t.
#pragma once

#include "trace/trace_format.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace weft::trace {

struct dependence {
  uint64_t address;
  dep_mode mode;
};

class sibling_dependences {
public:
  // Enters child `self` with its n dependences; `preds` becomes the earlier
  // children it depends on, sorted, each once, without `self`. in after the
  // last writer group; out/inout/mutexinoutset after the readers since that
  // group, or the group; consecutive inoutset children form a group that
  // depends on what was before it.
  void add(const dependence *d, uint32_t n, uint32_t self,
           std::vector<uint32_t> &preds);
  // The children a taskwait on these dependences waits for (what a child
  // with them would depend on), into `preds`; the table is unchanged.
  void conflicts(const dependence *d, uint32_t n,
                 std::vector<uint32_t> &preds) const;

private:
  struct addr_state {
    std::vector<uint32_t> group; // the last out/inout child, or inoutset set
    std::vector<uint32_t> group_preds; // what that inoutset set depends on
    std::vector<uint32_t> readers;     // in children since the group
    bool group_is_set = false;
  };
  std::unordered_map<uint64_t, addr_state> table_;
};

} // namespace weft::trace

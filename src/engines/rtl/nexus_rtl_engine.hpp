// WEFT_ENGINE=nexus-rtl: the dependency contract served by the Nexus++ Task
// Maestro's RTL (hw/nexus/nexus_task_maestro.sv) compiled
// by Verilator, with the functional model (src/engines/nexus) in lockstep.
//
// One server thread owns the simulated unit and the model. Workers format
// descriptors as the Nexus Plugin does, reserve room on the model's credits
// (as WEFT_NEXUS_MODE=thread does: an accepted task always fits, so neither
// the unit nor the model ever stalls on it) and queue them; retire queues
// the task id. The server takes everything queued as one batch: the model
// performs its finishes, then its insertions, the same words go to the
// unit's Finished and New FIFOs, and the unit is clocked until it is idle.
// Its Ready FIFO words must be the model's ready tasks and released waiters,
// in the model's order, with the model's task ids; any difference, a unit
// error or a task the unit keeps blocked is fatal. The ready tasks then go
// to the core (runtime::engine_ready).
//
// With the small unit's sizes (nexus_rtl::kSmall: WEFT_NEXUS_POOL=64,
// WEFT_NEXUS_SETS=16, WEFT_NEXUS_WAYS=4, WEFT_NEXUS_KOL=2,
// WEFT_NEXUS_DUMMY_KOL=16) nothing is reserved: the unit's own
// back-pressure decides. The server offers queued tasks in order; a head
// that does not fit stays in the unit's Task Buffer (blocked_o, which must
// agree with the model refusing it) and the tasks behind it wait in the
// server until a finish lets it in; submit answers full while 32 tasks wait.
// Waiters (taskwait depend) then wait for all children instead. That mode
// needs flat task graphs: a head blocked for 10 s with no finish arriving is
// fatal (a task holding its entry while its children wait for room).
//
// Statistics (WEFT_STATS=1): per operation, the RTL's cycles beside the
// model's (nexus_rtl.insert.rtl_cycles / .model_cycles, nexus_rtl.finish.*),
// the batches, the wall time of the simulation (nexus_rtl.sim_ns) and of
// the server's whole batches (model, simulation, hand-over to the core:
// nexus_rtl.server_ns).
#pragma once

#include "engines/engine.hpp"

#include <memory>

namespace weft {
// The engine registered as "nexus-rtl", configured from WEFT_NEXUS_* (only
// Table I's sizes and the small unit's are verilated: other sizes are
// fatal).
std::unique_ptr<dependency_engine> make_nexus_rtl_engine();
} // namespace weft

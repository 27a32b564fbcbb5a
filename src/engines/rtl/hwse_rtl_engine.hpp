// WEFT_WS_ENGINE=hwse-rtl: the work-sharing contract served by the HWSE's
// RTL (hw/hwse/hwse.sv) compiled by Verilator, cycle by cycle.
//
// One thread at a time owns the simulated unit and clocks it: the caller of
// init / fetch / end or the descriptor allocator that finds it free. The
// owner serves its own request, then those other callers queued meanwhile
// (they wait for their answers), so the unit serves one primitive at a
// time, as the functional model's FSM does, and a lone caller clocks it
// with no hand-off between threads. Each primitive issues the register accesses
// of the paper's API (the same shapes as the cost model,
// src/engines/hwse/hwse_cost_model.hpp) and counts the clock edges the RTL
// took beside the cycles the functional model charges for it.
//
// Where the RTL's single register set meets several live work shares (nowait
// loops, nested teams), the owner reloads it from the work share's bank
// (ws_state) before a FETCH on another one, as the model's unit does; the
// reloads are counted apart (hwse_rtl.bank_loads). Frees that find the FIFO
// full go to a software overflow list, allocs that find no bin take from it,
// as in the model; double and foreign frees are fatal.
#pragma once

#include "engines/hwse/hwse_config.hpp"
#include "engines/worksharing_engine.hpp"

#include <memory>

namespace weft::hwse_rtl {

// Passes over the queued requests the unit's owner makes before it hands
// the unit to the oldest waiter (hwse_rtl.handoffs counts these) and
// returns to its own work.
inline constexpr int kMaxPasses = 8;

// An engine over a unit with c's FIFO depth and heap of c.bins bins.
std::unique_ptr<worksharing_engine> make_engine(const hwse::config &c,
                                                int max_passes = kMaxPasses);

} // namespace weft::hwse_rtl

namespace weft {
// The engine registered as "hwse-rtl", configured from WEFT_HWSE_*.
std::unique_ptr<worksharing_engine> make_hwse_rtl_ws_engine();
} // namespace weft

// The engines by name: WEFT_ENGINE picks a dependency engine, WEFT_WS_ENGINE
// a work-sharing engine.
#include "engine.hpp"
#include "engines/sw/sw_engine.hpp"
#include "picos/picos_engine.hpp"
#include "worksharing_engine.hpp"

namespace weft {

std::unique_ptr<worksharing_engine> make_sw_ws_engine();
std::unique_ptr<worksharing_engine> make_hwse_ws_engine();
std::unique_ptr<worksharing_engine> make_hwse_rtl_ws_engine(); // rtl/
std::unique_ptr<dependency_engine> make_nexus_engine();        // nexus/
std::unique_ptr<dependency_engine> make_nexus_rtl_engine();    // rtl/

std::unique_ptr<dependency_engine> make_engine(const std::string &name,
                                               int nworkers) {
  if (name == "sw")
    return std::make_unique<sw_engine>(nworkers);
  if (name == "nexus")
    return make_nexus_engine();
  if (name == "nexus-rtl")
    return make_nexus_rtl_engine();
  if (name == "picos")
    return std::make_unique<picos_engine>(nworkers);
  return nullptr;
}

const char *engine_names() { return "sw, nexus, nexus-rtl, picos"; }

std::unique_ptr<worksharing_engine> make_ws_engine(const std::string &name) {
  if (name == "sw")
    return make_sw_ws_engine();
  if (name == "hwse")
    return make_hwse_ws_engine();
  if (name == "hwse-rtl")
    return make_hwse_rtl_ws_engine();
  return nullptr;
}

const char *ws_engine_names() { return "sw, hwse, hwse-rtl"; }

} // namespace weft

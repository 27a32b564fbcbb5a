// The Picos Delegates: the custom instructions of include/weft/picos.h, each
// issued by one core and carried out by the Picos Manager (picos_manager).
#include "base/error.hpp"
#include "picos_config.hpp"
#include "picos_manager.hpp"

#include <weft/picos.h>

#include <new>

extern "C" {

WEFT_API void weft_picos_config_default(weft_picos_config *cfg) {
  weft::picos_default_config(*cfg);
}

WEFT_API weft_picos *weft_picos_create(const weft_picos_config *cfg) {
  if (!cfg) {
    weft::set_error(WEFT_EINVAL, "weft_picos_create: config is NULL");
    return nullptr;
  }
  char msg[160];
  if (const char *why = weft::picos_check_config(*cfg, msg, sizeof msg)) {
    weft::set_error(WEFT_EINVAL, "%s", why);
    return nullptr;
  }
  return new weft_picos(*cfg);
}

WEFT_API void weft_picos_destroy(weft_picos *p) { delete p; }

WEFT_API int weft_picos_submission_request(weft_picos *p, int core,
                                           uint32_t npackets) {
  return p->manager.submission_request(core, npackets);
}

WEFT_API int weft_picos_submit_packet(weft_picos *p, int core,
                                      uint32_t packet) {
  return p->manager.submit_packet(core, packet);
}

WEFT_API int weft_picos_submit_three_packets(weft_picos *p, int core,
                                             uint64_t rs1, uint64_t rs2) {
  return p->manager.submit_three_packets(core, rs1, rs2);
}

WEFT_API int weft_picos_ready_task_request(weft_picos *p, int core) {
  return p->manager.ready_task_request(core);
}

WEFT_API uint64_t weft_picos_fetch_sw_id(weft_picos *p, int core) {
  return p->manager.fetch_sw_id(core);
}

WEFT_API uint32_t weft_picos_fetch_picos_id(weft_picos *p, int core) {
  return p->manager.fetch_picos_id(core);
}

WEFT_API void weft_picos_retire_task(weft_picos *p, int core,
                                     uint32_t picos_id) {
  p->manager.retire_task(core, picos_id);
}

WEFT_API uint32_t weft_picos_queued(const weft_picos *p, int core) {
  return p->manager.queued(core);
}

WEFT_API int weft_picos_counters(const weft_picos *p, const char **names,
                                 uint64_t *values, int max) {
  std::vector<weft::engine_counter> c;
  p->manager.counters(c);
  for (int i = 0; i < max && i < static_cast<int>(c.size()); ++i) {
    names[i] = c[static_cast<std::size_t>(i)].name;
    values[i] = c[static_cast<std::size_t>(i)].value;
  }
  return static_cast<int>(c.size());
}

} // extern "C"

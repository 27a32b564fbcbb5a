/* weft — the Picos task scheduler behind its custom instructions (Picos
 * paper, section IV): Picos, the Picos Manager that every core shares, and one
 * Picos Delegate per core. Each function below is one instruction of Table I,
 * executed by core `core` of Picos instance `p`.
 *
 * A task is described by a sequence of 32-bit packets (Figure 3): three
 * header packets (SW ID high, SW ID low, number of dependences) and three per
 * dependence (address low, address high, directionality), at most 15
 * dependences. Picos always takes 48 packets per task; the Manager's zero
 * padder adds the 45 - 3*D zero packets, so a core sends only 3 + 3*D.
 *
 * Non-blocking instructions answer WEFT_PICOS_FAIL (0) when the structure they
 * need is full or empty, and then change nothing; the caller may retry. Only
 * Retire Task blocks. Valid SW IDs and Picos IDs are never 0.
 *
 * Threads: any thread may issue instructions for any core, but one core's
 * instructions must not run concurrently (a core is one hardware thread).
 * Protocol violations (a core out of range, a packet count that is not
 * 3 + 3*D with D <= 15, a descriptor whose #deps disagrees with the count
 * announced, SW ID 0, a directionality other than 1..3, the same address
 * twice in one descriptor, retiring an ID that Picos did not hand out) abort
 * with a message naming the instruction and the value: the Manager's error
 * output.
 */
#ifndef WEFT_PICOS_H
#define WEFT_PICOS_H

#include <weft/weft.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_PICOS_FAIL 0      /* failure value of the non-blocking ones */
#define WEFT_PICOS_MAX_DEPS 15 /* dependences per descriptor */
#define WEFT_PICOS_PACKETS 48  /* packets Picos takes per task */

/* Directionality packet values. */
#define WEFT_PICOS_DIR_IN 1u
#define WEFT_PICOS_DIR_OUT 2u
#define WEFT_PICOS_DIR_INOUT 3u

typedef struct weft_picos weft_picos;

typedef struct weft_picos_config {
  int cores;               /* Picos Delegates: cores 0 .. cores-1 */
  uint32_t task_memory;    /* tasks Picos holds at once (TM entries) */
  uint32_t dep_memory;     /* distinct addresses it tracks (DM entries) */
  uint32_t version_memory; /* versions of those addresses (VM entries) */
  uint32_t ready_queue;    /* Manager's central ready-task queue */
  uint32_t core_queue;     /* each core's private ready queue */
  uint32_t fetch_queue;    /* work-fetch arbiter's routing queue */
  double clock_mhz;        /* converts modelled cycles to modelled time */
  /* Called (outside the Manager's lock) after the Manager put a task into
   * `core`'s private ready queue; may be NULL. */
  void (*notify)(void *ctx, int core);
  void *notify_ctx;
} weft_picos_config;

/* The defaults (docs/engines.md); reads no environment variable. */
WEFT_API void weft_picos_config_default(weft_picos_config *cfg);

/* A Picos instance with empty structures, or NULL when cfg is invalid
 * (weft_last_error() names the field and the value). */
WEFT_API weft_picos *weft_picos_create(const weft_picos_config *cfg);
/* Frees it; no instruction may run concurrently or later. */
WEFT_API void weft_picos_destroy(weft_picos *p);

/* ---- the instructions (Table I) ---------------------------------------- */

/* Submission Request: this core will send `npackets` (3 + 3*D) packets.
 * Succeeds only when Picos can take the whole task (a free task-memory entry
 * and room for D new addresses and D new versions) and the core has no
 * earlier submission still waiting; then the packets that follow from this
 * core are forwarded to Picos as one sequence, never interleaved with another
 * core's, after those of every core whose request succeeded earlier. Returns
 * 1, or WEFT_PICOS_FAIL. */
WEFT_API int weft_picos_submission_request(weft_picos *p, int core,
                                           uint32_t npackets);

/* Submit Packet: sends the next packet of the announced sequence. Fails
 * (WEFT_PICOS_FAIL, nothing changes) when no announced packet is left to
 * send; after a successful Submission Request it never fails. */
WEFT_API int weft_picos_submit_packet(weft_picos *p, int core, uint32_t packet);

/* Submit Three Packets: P1 = rs1[63:32], P2 = rs1[31:0], P3 = rs2[31:0], in
 * that order. Fails like Submit Packet when fewer than three announced
 * packets are left. */
WEFT_API int weft_picos_submit_three_packets(weft_picos *p, int core,
                                             uint64_t rs1, uint64_t rs2);

/* Ready Task Request: asks the Manager to move one more ready task from the
 * global ready queue to this core's private queue. Requests from all cores
 * are answered in the order they succeeded. Fails when the work-fetch
 * arbiter's routing queue is full or this core's queue plus its unanswered
 * requests would exceed the private queue's capacity. */
WEFT_API int weft_picos_ready_task_request(weft_picos *p, int core);

/* Fetch SW ID: the SW ID of the front task of this core's private queue,
 * without popping it (WEFT_PICOS_FAIL if the queue is empty). */
WEFT_API uint64_t weft_picos_fetch_sw_id(weft_picos *p, int core);

/* Fetch Picos ID: if the queue is non-empty and a Fetch SW ID has succeeded
 * on its front task since the last pop, returns that task's Picos ID and pops
 * it; otherwise WEFT_PICOS_FAIL and nothing changes. */
WEFT_API uint32_t weft_picos_fetch_picos_id(weft_picos *p, int core);

/* Retire Task: the task with this Picos ID finished. Blocks until the
 * round-robin retirement arbiter has taken the packet; Picos then frees the
 * task and may make its successors ready. */
WEFT_API void weft_picos_retire_task(weft_picos *p, int core,
                                     uint32_t picos_id);

/* ---- status and statistics (not instructions) -------------------------- */

/* Tasks now in core's private ready queue (a status read; a hint when other
 * cores' instructions run concurrently). */
WEFT_API uint32_t weft_picos_queued(const weft_picos *p, int core);

/* The named counters ("picos.*": instruction counts and failures, packets,
 * modelled cycles and ns, peak occupancies, stalls): writes up to max of them
 * and returns how many there are. Names have static storage duration. */
WEFT_API int weft_picos_counters(const weft_picos *p, const char **names,
                                 uint64_t *values, int max);

/* ---- packet encoding (Figure 3) ---------------------------------------- */

/* Packets for a task with ndeps dependences. */
static inline uint32_t weft_picos_packets(int ndeps) {
  return 3u + 3u * (uint32_t)ndeps;
}

/* Header operands for Submit Three Packets: SW ID high, SW ID low, #deps. */
static inline void weft_picos_header(uint64_t sw_id, int ndeps, uint64_t *rs1,
                                     uint64_t *rs2) {
  *rs1 = sw_id;
  *rs2 = (uint64_t)(uint32_t)ndeps;
}

/* Dependence operands: address low, address high, directionality. */
static inline void weft_picos_dependence(uint64_t addr, uint32_t dir,
                                         uint64_t *rs1, uint64_t *rs2) {
  *rs1 = (addr << 32) | (addr >> 32);
  *rs2 = dir;
}

#ifdef __cplusplus
}
#endif

#endif /* WEFT_PICOS_H */

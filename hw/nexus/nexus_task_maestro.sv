// The Nexus++ Task Maestro (papers/nexus-vss-hardware-task-manager.txt,
// section III, Table I): the New, Ready and Finished FIFOs, the Task Buffer,
// the Task Pool with dummy entries, the Dependence Counts, the 8-way
// set-associative Dependence Table (nexus_dependence_table) whose entries
// carry their Kick-Off Lists, and the Dummy Kick-Off List table. Every size
// is a parameter with Table I's value as default; every table is a memory.
//
// Interface (all words valid with the FIFOs' push / pop in one cycle):
//   New FIFO word     {1'b1, 60'b0, waiter, n[4:0]}  a task's header, then
//                     {1'b0, acc[1:0], key[63:0]}     n parameter words
//                     (key = {domain tag[15:0], address[47:0]}, distinct
//                     keys per task, n <= MAX_PARAMS).
//   Finished FIFO     a task id the host read from the Ready FIFO.
//   Ready FIFO word   {waiter, id}: a task whose dependences are all met; a
//                     waiter (taskwait depend) is announced after the unit
//                     has already finished it.
//   idle_o            nothing to do until a word arrives; blocked_o: the
//                     head of the Task Buffer waits for room.
//
// Semantics are the functional model's (src/engines/nexus/
// nexus_task_maestro.cpp), operation by operation: same task ids (a LIFO of
// free Task Pool entries, fresh ones in order), same Dummy Kick-Off List
// numbers, same Ready FIFO order. Operations run one at a time: a waiter
// made ready finishes first, then a Finished FIFO word, then the head of
// the Task Buffer. An insertion looks its parameters up one per cycle and
// places each one as its answer arrives (the Dependence Table's direct
// write port, beside the next lookups): n + 6 cycles for a task made ready
// at once. A head that does not fit (no pool entries, no way in a set, no
// Dummy Kick-Off List) has what it placed undone, one cycle per parameter,
// and stays there until a finish frees room: that is the back-pressure,
// the New FIFO then fills and refuses words.
//
// err_o is sticky: a finished id that is not a live task, or a finished
// task's key missing from the Dependence Table.
module nexus_task_maestro #(
    parameter int unsigned POOL = nexus_pkg::PoolDefault,
    parameter int unsigned PARAMS = nexus_pkg::ParamsDefault,
    parameter int unsigned MAX_PARAMS = nexus_pkg::MaxParamsDefault,
    parameter int unsigned SETS = nexus_pkg::DtSetsDefault,
    parameter int unsigned WAYS = nexus_pkg::DtWaysDefault,
    parameter int unsigned KOL = nexus_pkg::KolDefault,
    parameter int unsigned DUMMY_KOL = nexus_pkg::DummyKolDefault,
    parameter int unsigned NEW_FIFO = nexus_pkg::NewFifoDefault,
    parameter int unsigned READY_FIFO = nexus_pkg::ReadyFifoDefault,
    parameter int unsigned FINISHED_FIFO = nexus_pkg::FinishedFifoDefault,
    localparam int unsigned IW = $clog2(POOL),  // task id
    localparam int unsigned NW = 67  // New FIFO word
) (
    input  logic          clk_i,
    input  logic          rst_ni,
    // New FIFO
    input  logic          new_push_i,
    input  logic [NW-1:0] new_data_i,
    output logic          new_full_o,
    // Finished FIFO
    input  logic          fin_push_i,
    input  logic [IW-1:0] fin_data_i,
    output logic          fin_full_o,
    // Ready FIFO
    input  logic          rdy_pop_i,
    output logic [  IW:0] rdy_data_o,
    output logic          rdy_empty_o,
    // Status and counters (cycles since reset, split by operation)
    output logic          idle_o,
    output logic          blocked_o,
    output logic          err_o,
    output logic [  63:0] cyc_o,
    output logic [  63:0] cyc_insert_o,
    output logic [  63:0] cyc_finish_o,
    output logic [  63:0] cyc_blocked_o,
    output logic [  31:0] inserts_o,
    output logic [  31:0] finishes_o
);
  localparam int unsigned SB = $clog2(SETS);
  localparam int unsigned WB = $clog2(WAYS + 1);  // a set's used ways
  localparam int unsigned YB = WAYS > 1 ? $clog2(WAYS) : 1;  // a way
  localparam int unsigned KW = $clog2(KOL);
  localparam int unsigned DW = $clog2(DUMMY_KOL);
  localparam int unsigned HW = IW + 1;  // holders, waiting
  localparam int unsigned SW = IW + 2;  // a Kick-Off List slot {id, acc}
  localparam int unsigned PW = $clog2(PARAMS);
  localparam int unsigned MW = $clog2(MAX_PARAMS + 1);
  localparam int unsigned CW = MW;  // a Dependence Count
  localparam int unsigned MAXE = (MAX_PARAMS + PARAMS - 1) / PARAMS;  // entries per task
  localparam int unsigned EW = MAXE > 1 ? $clog2(MAXE) : 1;
  localparam int unsigned ST = HW + 2 + HW + KW + (KW + 1) + 2 * (DW + 1) + (KW + 1) + KOL * SW;

  // ---- the FIFOs -------------------------------------------------------------
  /* verilator lint_off PINCONNECTEMPTY */
  logic new_pop, new_empty, fin_pop, fin_empty, rdy_push, rdy_full;
  logic [NW-1:0] new_head;
  logic [IW-1:0] fin_head;
  logic [IW:0] rdy_word;
  hwse_fifo #(
      .DEPTH(NEW_FIFO),
      .WIDTH(NW)
  ) u_new (
      .clk_i, .rst_ni, .clear_i(1'b0), .push_i(new_push_i), .data_i(new_data_i), .pop_i(new_pop),
      .head_o(new_head), .empty_o(new_empty), .full_o(new_full_o), .count_o()
  );
  hwse_fifo #(
      .DEPTH(FINISHED_FIFO),
      .WIDTH(IW)
  ) u_fin (
      .clk_i, .rst_ni, .clear_i(1'b0), .push_i(fin_push_i), .data_i(fin_data_i), .pop_i(fin_pop),
      .head_o(fin_head), .empty_o(fin_empty), .full_o(fin_full_o), .count_o()
  );
  hwse_fifo #(
      .DEPTH(READY_FIFO),
      .WIDTH(IW + 1)
  ) u_rdy (
      .clk_i, .rst_ni, .clear_i(1'b0), .push_i(rdy_push), .data_i(rdy_word), .pop_i(rdy_pop_i),
      .head_o(rdy_data_o), .empty_o(rdy_empty_o), .full_o(rdy_full), .count_o()
  );
  // Waiters made ready, finished by the unit before anything else.
  logic wq_push, wq_pop, wq_empty;
  logic [IW-1:0] wq_in, wq_head;
  hwse_fifo #(
      .DEPTH(POOL),
      .WIDTH(IW)
  ) u_waiters (
      .clk_i, .rst_ni, .clear_i(1'b0), .push_i(wq_push), .data_i(wq_in), .pop_i(wq_pop),
      .head_o(wq_head), .empty_o(wq_empty), .full_o(), .count_o()
  );

  // ---- the Dependence Table ---------------------------------------------------
  logic dt_valid, dt_rsp, dt_hit;  // the table takes an operation every cycle
  logic [1:0] dt_op;
  logic [63:0] dt_key;
  logic [ST-1:0] dt_wdata, dt_rdata;
  logic [YB-1:0] dt_way;  // the way a lookup found its key in
  // The direct write port: an insertion's placements and their undo.
  logic dw_valid;
  logic [1:0] dw_op;
  logic [YB-1:0] dw_way, dw_free_way;
  logic [ST-1:0] dw_data;
  logic [63:0] dw_key;
  nexus_dependence_table #(
      .SETS (SETS),
      .WAYS (WAYS),
      .KEY_W(64),
      .WIDTH(ST)
  ) u_dt (
      .clk_i, .rst_ni, .req_valid_i(dt_valid), .req_op_i(dt_op), .req_key_i(dt_key),
      .req_data_i(dt_wdata), .req_ready_o(), .rsp_valid_o(dt_rsp), .rsp_hit_o(dt_hit),
      .rsp_full_o(), .rsp_data_o(dt_rdata), .rsp_way_o(dt_way), .wr_valid_i(dw_valid),
      .wr_op_i(dw_op), .wr_key_i(dw_key), .wr_way_i(dw_way), .wr_data_i(dw_data),
      .wr_way_o(dw_free_way)
  );

  /* verilator lint_on PINCONNECTEMPTY */

  // ---- the memories -----------------------------------------------------------
  // Task Pool: a header per entry {live, waiter... in counts}, parameters.
  logic [IW+1+PW+1-1:0] pool_hdr[0:POOL-1];  // {next valid, next, count}
  logic [65:0] pool_par[0:POOL*PARAMS-1];  // {acc, key}
  logic [CW:0] counts[0:POOL-1];  // Dependence Counts {waiter, count}
  logic [IW-1:0] pool_free[0:POOL-1];  // freed entries, a stack
  logic [IW:0] pool_top_q, pool_fresh_q;  // stack height, next never-used entry
  logic [POOL-1:0] live_q;  // main entries of tasks in the pool
  logic [WB-1:0] set_used[0:SETS-1];
  logic [DW-1:0] dk_next[0:DUMMY_KOL-1];  // the next list of a chain (none after its tail)
  logic [KOL*SW-1:0] dk_slots[0:DUMMY_KOL-1];
  logic [DW-1:0] dk_free[0:DUMMY_KOL-1];
  logic [DW:0] dk_top_q, dk_fresh_q;

  // ---- the FSM ----------------------------------------------------------------
  typedef enum logic [4:0] {
    S_IDLE,
    S_LOAD_HDR,
    S_CHK_POOL,
    S_CHK,
    S_PL_ALLOC,
    S_UNDO,
    S_PL_FINAL,
    S_FIN_HDR_RD,
    S_FIN_HDR,
    S_FIN_LK,
    S_FIN_LD,
    S_KO,
    S_KO_CNT,
    S_FIN_WB,
    S_FIN_PNEXT,
    S_FIN_REL,
    S_EMIT
  } state_e;
  state_e st_q, ret_q;

  // The Task Buffer (one task: the head).
  logic hd_valid_q, hd_waiter_q, blocked_q;
  logic ld_q;  // the check takes the head's parameter words as they arrive
  logic fail_q;  // the check found something that does not fit
  logic short_q;  // the pool has too few entries (nothing allocated)
  logic [MW-1:0] hd_n_q, pi_q, qi_q, pend_q, placed_q;
  logic [63:0] hd_key_q[0:MAX_PARAMS-1];
  logic [1:0] hd_acc_q[0:MAX_PARAMS-1];
  logic [MAX_PARAMS-1:0] hd_new_q;
  logic [YB-1:0] hd_way_q[0:MAX_PARAMS-1];  // where each parameter was placed
  // The free stacks before the insertion (its undo restores them).
  logic [IW:0] sv_pool_top_q, sv_pool_fresh_q;
  logic [DW:0] sv_dk_top_q, sv_dk_fresh_q;
  logic [IW-1:0] ent_q[0:MAXE-1];
  logic [EW:0] ei_q;

  // The entry being worked on, decoded.
  logic [HW-1:0] e_hold_q, e_wait_q;
  logic [1:0] e_acc_q;
  logic [KW-1:0] e_khead_q;
  logic [KW:0] e_klen_q, e_tailn_q;
  logic e_dh_v_q, e_dt_v_q;
  logic [DW-1:0] e_dh_q, e_dt_q;
  logic [SW-1:0] e_kol_q[0:KOL-1];

  // The finish in progress.
  logic [IW-1:0] fid_q, fe_q, ko_id_q, emit_id_q;
  logic f_waiter_q, f_next_v_q, emit_waiter_q, ko_refill_q;
  logic [IW-1:0] f_next_q;
  logic [PW:0] f_n_q;
  logic [63:0] fkey_q;
  logic rd1_q;  // a parameter read of the finish's lookups is answered now
  logic [63:0] f_key[0:PARAMS-1];  // the entry's keys, kept by its lookups
  logic [PARAMS-1:0] f_ko_q;  // the entry's keys whose lookups found waiters to kick off
  logic [63:0] f_key_rd, fin_key;
  logic [IW-1:0] fent_q[0:MAXE-1];
  logic [EW:0] fe_cnt_q;

  // Registered reads.
  logic [IW+1+PW+1-1:0] hdr_rd;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [65:0] par_rd;  // the access class is not needed to finish
  /* verilator lint_on UNUSEDSIGNAL */
  logic [CW:0] cnt_rd;
  logic [DW-1:0] dkn_rd;
  logic [KOL*SW-1:0] dks_rd;

  function automatic logic concurrent(logic [1:0] a);
    concurrent = a != nexus_pkg::AccOut;
  endfunction

  // The insertion's lookups, kept for its undo, and the finish's: one entry
  // state per parameter (a memory).
  logic [ST-1:0] hd_st[0:MAX_PARAMS-1];
  logic [ST-1:0] hd_st_rd;
  logic [$clog2(MAX_PARAMS)-1:0] pidx, qidx;
  assign pidx = pi_q[$clog2(MAX_PARAMS)-1:0];
  assign qidx = qi_q[$clog2(MAX_PARAMS)-1:0];
  assign hd_st_rd = hd_st[pidx];
  always_ff @(posedge clk_i) if ((st_q == S_CHK || st_q == S_FIN_LK) && lk_rsp) hd_st[pidx] <= dt_rdata;
  assign f_key_rd = f_key[pidx[PW-1:0]];
  always_ff @(posedge clk_i) if (st_q == S_FIN_LK && rd1_q) f_key[PW'(qi_q-1'b1)] <= par_rd[63:0];

  // A lookup's answer (the Dependence Table also answers writes; 2 cycles
  // after the request, whatever came between).
  logic lk1_q, lk2_q, lk_rsp;
  assign lk_rsp = dt_rsp && lk2_q;

  // The entry state decoded below: the finish's kept lookup, else the
  // Dependence Table's response.
  logic [ST-1:0] src_st;
  logic src_hit;
  assign src_st  = st_q == S_FIN_LD ? hd_st_rd : dt_rdata;
  assign src_hit = st_q == S_FIN_LD || dt_hit;

  // Decoding an entry state.
  logic [HW-1:0] r_hold, r_wait;
  logic [1:0] r_acc;
  logic [KW-1:0] r_khead;
  logic [KW:0] r_klen, r_tailn;
  logic r_dh_v, r_dt_v;
  logic [DW-1:0] r_dh, r_dt;
  logic [SW-1:0] r_kol[0:KOL-1];
  localparam int unsigned O_ACC = HW;
  localparam int unsigned O_WAIT = O_ACC + 2;
  localparam int unsigned O_KHEAD = O_WAIT + HW;
  localparam int unsigned O_KLEN = O_KHEAD + KW;
  localparam int unsigned O_DH = O_KLEN + KW + 1;
  localparam int unsigned O_DT = O_DH + DW + 1;
  localparam int unsigned O_TAILN = O_DT + DW + 1;
  localparam int unsigned O_KOL = O_TAILN + KW + 1;
  assign r_hold = src_st[0+:HW];
  assign r_acc = src_st[O_ACC+:2];
  assign r_wait = src_st[O_WAIT+:HW];
  assign r_khead = src_st[O_KHEAD+:KW];
  assign r_klen = src_st[O_KLEN+:KW+1];
  assign r_dh = src_st[O_DH+:DW];
  assign r_dh_v = src_st[O_DH+DW];
  assign r_dt = src_st[O_DT+:DW];
  assign r_dt_v = src_st[O_DT+DW];
  assign r_tailn = src_st[O_TAILN+:KW+1];
  for (genvar k = 0; k < KOL; k++) begin : g_rkol
    assign r_kol[k] = src_st[O_KOL+k*SW+:SW];
  end
  // Encoding the entry registers.
  logic [ST-1:0] e_enc;
  logic [KOL*SW-1:0] e_slots;
  for (genvar k = 0; k < KOL; k++) begin : g_ekol
    assign e_slots[k*SW+:SW] = e_kol_q[k];
  end
  always_comb begin
    e_enc = {e_slots, e_tailn_q, e_dt_v_q, e_dt_q, e_dh_v_q, e_dh_q, e_klen_q, e_khead_q, e_wait_q, e_acc_q, e_hold_q};
  end

  // The parameter the insert works on, its set and the room in it.
  logic [63:0] cur_key;
  logic [1:0] cur_acc;
  logic [SB-1:0] cur_set;
  logic [WB-1:0] cur_used;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] cur_hash, fkey_hash;  // the low SB bits are the set
  /* verilator lint_on UNUSEDSIGNAL */
  assign cur_key = hd_key_q[pidx];
  assign cur_acc = hd_acc_q[pidx];
  assign cur_hash = nexus_pkg::set_hash(cur_key);
  assign cur_set = cur_hash[SB-1:0];
  assign cur_used = set_used[cur_set];
  logic [SB-1:0] fkey_set;
  assign fin_key = st_q == S_FIN_LD || st_q == S_FIN_LK ? f_key_rd : fkey_q;
  assign fkey_hash = nexus_pkg::set_hash(fin_key);
  assign fkey_set = fkey_hash[SB-1:0];

  // The check of the current parameter fails: no way left in its set for a
  // new key, or no Dummy Kick-Off List left for an append. (The parameters
  // before it are placed already: the set's count and the free lists
  // include them.) A parameter that passes is placed in the same cycle.
  logic chk_fail, place;
  assign chk_fail = !src_hit ? cur_used == WB'(WAYS) : !r_join && r_needs_dummy && dk_free_n == '0;
  assign place = st_q == S_CHK && lk_rsp && !fail_q && !chk_fail;
  // Undoing a placed parameter (pi_q < placed_q).
  logic undo;
  assign undo = st_q == S_UNDO && pi_q < placed_q;

  // Decoded response: joinable, and whether an append needs a dummy list.
  logic r_join, r_needs_dummy;
  assign r_join = r_wait == '0 && concurrent(cur_acc) && r_acc == cur_acc && r_hold != '0;
  assign r_needs_dummy = r_dt_v ? r_tailn == (KW + 1)'(KOL) : r_klen == (KW + 1)'(KOL);

  logic [IW:0] pool_free_n;
  logic [DW:0] dk_free_n;
  assign pool_free_n = pool_top_q + (IW + 1)'(POOL) - pool_fresh_q;
  assign dk_free_n = dk_top_q + (DW + 1)'(DUMMY_KOL) - dk_fresh_q;
  logic [EW:0] need;
  assign need = hd_n_q <= MW'(PARAMS) ? (EW + 1)'(1) : (EW + 1)'((hd_n_q + MW'(PARAMS - 1)) / MW'(PARAMS));

  // The next free pool entry and dummy list (a pop).
  logic [IW-1:0] pool_pop;
  logic [DW-1:0] dk_pop;
  assign pool_pop = pool_top_q != '0 ? pool_free[pool_top_q[IW-1:0]-1'b1] : pool_fresh_q[IW-1:0];
  assign dk_pop = dk_top_q != '0 ? dk_free[dk_top_q[DW-1:0]-1'b1] : dk_fresh_q[DW-1:0];

  // Kick-off: the front of the list.
  logic [SW-1:0] front;
  assign front = e_kol_q[e_khead_q];

  // ---- combinational outputs of the FSM ---------------------------------------
  always_comb begin
    dt_valid = 1'b0;
    dt_op = nexus_pkg::DtLookup;
    dt_key = cur_key;
    dt_wdata = e_enc;
    new_pop = 1'b0;
    fin_pop = 1'b0;
    wq_pop = 1'b0;
    rdy_push = 1'b0;
    rdy_word = st_q == S_KO_CNT ? {1'b0, ko_id_q} : {emit_waiter_q, emit_id_q};
    case (st_q)
      S_IDLE:
      if (!wq_push) begin
        if (!wq_empty) wq_pop = 1'b1;
        else if (!fin_empty) fin_pop = 1'b1;
      end
      S_LOAD_HDR: new_pop = !new_empty;
      // One lookup per cycle: the parameter words as they leave the New
      // FIFO, or (a head retried) the Task Buffer's keys.
      S_CHK:
      if (qi_q < hd_n_q) begin
        if (!ld_q) begin
          dt_valid = 1'b1;
          dt_key   = hd_key_q[qidx];
        end else if (!new_empty) begin
          new_pop  = 1'b1;
          dt_valid = 1'b1;
          dt_key   = new_head[63:0];
        end
      end
      // One lookup per cycle, each key as its parameter read answers.
      S_FIN_LK:
      if (rd1_q) begin
        dt_valid = 1'b1;
        dt_key   = par_rd[63:0];
      end
      S_KO_CNT: rdy_push = ko_emit && !rdy_full;
      S_FIN_WB: begin
        dt_valid = 1'b1;
        dt_key   = fin_key;
        dt_op    = e_hold_q == '0 ? nexus_pkg::DtDelete : nexus_pkg::DtUpdate;
      end
      S_EMIT: rdy_push = !rdy_full;
      default: ;
    endcase
  end

  // The direct writes: a parameter placed (the entry after it joins; a new
  // key into its set's lowest free way), or undone (its way freed, or the
  // state its lookup found written back); a finish's entry that kicks nobody
  // off, written back as its lookup answers (one holder fewer; its way freed
  // when it was the last).
  always_comb begin
    dw_valid = place || undo || fin_wb;
    dw_op = dt_hit ? nexus_pkg::WrWay : nexus_pkg::WrNew;
    dw_way = dt_way;
    dw_data = p_enc;
    dw_key = cur_key;
    if (st_q == S_FIN_LK) begin
      dw_op = r_hold == HW'(1) ? nexus_pkg::WrFree : nexus_pkg::WrWay;
      dw_data = {src_st[ST-1:HW], r_hold - 1'b1};
      dw_key = f_key_rd;
    end
    if (st_q == S_UNDO) begin
      dw_op = hd_new_q[pidx] ? nexus_pkg::WrFree : nexus_pkg::WrWay;
      dw_way = hd_way_q[pidx];
      dw_data = hd_st_rd;
    end
  end

  // Memory read addresses (combinational from the state; data next cycle).
  logic [IW-1:0] hdr_ra, cnt_ra;
  logic [$clog2(POOL*PARAMS)-1:0] par_ra;
  logic [DW-1:0] dk_ra;
  assign hdr_ra = fe_q;
  assign par_ra = {fe_q, qi_q[PW-1:0]};
  assign cnt_ra = front[SW-1:2];
  assign dk_ra = e_dh_q;
  always_ff @(posedge clk_i) begin
    hdr_rd <= pool_hdr[hdr_ra];
    par_rd <= pool_par[par_ra];
    cnt_rd <= counts[cnt_ra];
    dkn_rd <= dk_next[dk_ra];
    dks_rd <= dk_slots[dk_ra];
  end

  // Memory writes.
  logic hdr_we, par_we, cnt_we, pf_we, su_we, dkn_we, dks_we, dkf_we;
  logic [IW-1:0] hdr_wa, cnt_wa, pf_wa;
  logic [IW+1+PW+1-1:0] hdr_wd;
  logic [$clog2(POOL*PARAMS)-1:0] par_wa;
  logic [CW:0] cnt_wd;
  logic [IW-1:0] pf_wd;
  logic [SB-1:0] su_wa;
  logic [WB-1:0] su_wd;
  logic [DW-1:0] dkn_wa, dks_wa, dkf_wa, dkf_wd;
  logic [DW-1:0] dkn_wd;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [KW:0] dks_slot;  // < KOL
  /* verilator lint_on UNUSEDSIGNAL */
  logic [SW-1:0] dks_wd;
  always_ff @(posedge clk_i) begin
    if (hdr_we) pool_hdr[hdr_wa] <= hdr_wd;
    if (par_we) pool_par[par_wa] <= {cur_acc, cur_key};
    if (cnt_we) counts[cnt_wa] <= cnt_wd;
    if (pf_we) pool_free[pf_wa] <= pf_wd;
    if (su_we) set_used[su_wa] <= su_wd;
    if (dkn_we) dk_next[dkn_wa] <= dkn_wd;
    if (dks_we) dk_slots[dks_wa][dks_slot[KW-1:0]*SW+:SW] <= dks_wd;
    if (dkf_we) dk_free[dkf_wa] <= dkf_wd;
  end

  // The insert's placement of the current parameter: the entry after it.
  logic [HW-1:0] p_hold, p_wait;
  logic [1:0] p_acc;
  logic [KW-1:0] p_khead;
  logic [KW:0] p_klen, p_tailn;
  logic p_dh_v, p_dt_v, p_take_dummy, p_append;
  logic [DW-1:0] p_dh, p_dt;
  logic [SW-1:0] p_kol[0:KOL-1];
  logic [ST-1:0] p_enc;
  logic [KOL*SW-1:0] p_slots;
  for (genvar k = 0; k < KOL; k++) begin : g_pkol
    assign p_slots[k*SW+:SW] = p_kol[k];
  end
  assign p_enc = {p_slots, p_tailn, p_dt_v, p_dt, p_dh_v, p_dh, p_klen, p_khead, p_wait, p_acc, p_hold};
  always_comb begin
    p_hold = r_hold;
    p_wait = r_wait;
    p_acc = r_acc;
    p_khead = r_khead;
    p_klen = r_klen;
    p_tailn = r_tailn;
    p_dh_v = r_dh_v;
    p_dt_v = r_dt_v;
    p_dh = r_dh;
    p_dt = r_dt;
    for (int unsigned k = 0; k < KOL; k++) p_kol[k] = r_kol[k];
    p_take_dummy = 1'b0;
    p_append = 1'b0;
    if (!src_hit) begin
      p_hold = HW'(1);
      p_wait = '0;
      p_acc = cur_acc;
      p_khead = '0;
      p_klen = '0;
      p_tailn = '0;
      p_dh_v = 1'b0;
      p_dt_v = 1'b0;
      p_dh = '0;
      p_dt = '0;
      for (int unsigned k = 0; k < KOL; k++) p_kol[k] = '0;
    end else if (r_join) begin
      p_hold = r_hold + 1'b1;
    end else begin
      p_append = 1'b1;
      p_wait = r_wait + 1'b1;
      if (!r_dt_v && r_klen != (KW + 1)'(KOL)) begin
        p_kol[KW'(r_khead+r_klen[KW-1:0])] = {ent_q[0], cur_acc};
        p_klen = r_klen + 1'b1;
      end else begin
        if (!r_dt_v || r_tailn == (KW + 1)'(KOL)) begin
          p_take_dummy = 1'b1;
          p_dt_v = 1'b1;
          p_dt = dk_pop;
          p_tailn = '0;
          if (!r_dt_v) begin
            p_dh_v = 1'b1;
            p_dh = dk_pop;
          end
        end
        p_tailn = p_tailn + 1'b1;
      end
    end
  end

  // The entry's Dependence Count and the front's after a kick-off.
  logic [CW-1:0] ko_count;
  assign ko_count = cnt_rd[CW-1:0] - 1'b1;
  // The task kicked off becomes ready (a waiter goes to the waiter queue
  // instead); its Ready word waits for room in the Ready FIFO.
  logic ko_emit, ko_stall;
  assign ko_emit  = ko_count == '0 && !cnt_rd[CW];
  assign ko_stall = ko_emit && rdy_full;
  // The finish's kept entry: its last holder leaves and tasks wait.
  logic fin_ko;
  assign fin_ko = r_hold == HW'(1) && r_wait != '0;
  // A finish's lookup answered for an entry that kicks nobody off.
  logic fin_wb;
  assign fin_wb = st_q == S_FIN_LK && lk_rsp && dt_hit && !fin_ko;
  // The finish's entries with tasks to kick off, served one after another
  // from S_FIN_LD: the first one after index `from` (the answer just in
  // included), and whether there is one.
  logic [PARAMS-1:0] ko_all;
  assign ko_all = f_ko_q | (lk_rsp && fin_ko ? PARAMS'(1) << pidx[PW-1:0] : '0);
  function automatic logic [PW:0] next_ko(logic [PARAMS-1:0] m, logic [PW:0] from);
    next_ko = (PW + 1)'(PARAMS);
    for (int i = PARAMS - 1; i >= 0; i--) if (m[i] && (PW + 1)'(i) >= from) next_ko = (PW + 1)'(i);
  endfunction
  logic [PW:0] ko_first, ko_next;
  assign ko_first = next_ko(ko_all, '0);
  assign ko_next  = next_ko(f_ko_q, (PW + 1)'(pi_q) + 1'b1);

  always_comb begin
    hdr_we = 1'b0;
    hdr_wa = ent_q[0];
    hdr_wd = '0;
    par_we = 1'b0;
    par_wa = {ent_q[EW'(pi_q/MW'(PARAMS))], pi_q[PW-1:0]};
    cnt_we = 1'b0;
    cnt_wa = ent_q[0];
    cnt_wd = {hd_waiter_q, pend_q};
    pf_we = 1'b0;
    pf_wa = pool_top_q[IW-1:0];
    pf_wd = fent_q[EW'(ei_q)];
    su_we = 1'b0;
    su_wa = st_q == S_FIN_WB || st_q == S_FIN_LK ? fkey_set : cur_set;
    su_wd = st_q == S_FIN_WB || st_q == S_FIN_LK ? set_used[fkey_set] - 1'b1 : st_q == S_UNDO ? cur_used - 1'b1 : cur_used + 1'b1;
    dkn_we = 1'b0;
    dkn_wa = dk_pop;
    dkn_wd = '0;
    dks_we = 1'b0;
    dks_wa = p_dt;
    dks_slot = p_tailn - 1'b1;
    dks_wd = {ent_q[0], cur_acc};
    dkf_we = 1'b0;
    dkf_wa = dk_top_q[DW-1:0];
    dkf_wd = e_dh_q;
    case (st_q)
      S_CHK:
      if (place) begin
        par_we = 1'b1;
        if (!src_hit) su_we = 1'b1;
        if (p_take_dummy && r_dt_v) begin
          // The old tail links to the new list.
          dkn_we = 1'b1;
          dkn_wa = r_dt;
          dkn_wd = dk_pop;
        end
        if (p_append && p_dt_v) dks_we = 1'b1;
      end
      S_UNDO: su_we = undo && hd_new_q[pidx];
      S_PL_FINAL: begin
        hdr_we = 1'b1;
        hdr_wa = ent_q[EW'(ei_q)];
        hdr_wd = {
          ei_q + 1'b1 < need,
          ent_q[EW'(ei_q+1'b1)],
          (PW + 1)'(ei_q + 1'b1 < need ? MW'(PARAMS) : hd_n_q - MW'(ei_q) * MW'(PARAMS))
        };
        cnt_we = ei_q == '0;
      end
      S_FIN_LK: su_we = fin_wb && r_hold == HW'(1);
      S_KO_CNT:
      if (!ko_stall) begin
        cnt_we = 1'b1;
        cnt_wa = ko_id_q;
        cnt_wd = {cnt_rd[CW], ko_count};
        dkf_we = ko_refill_q;
      end
      S_FIN_WB: su_we = e_hold_q == '0;
      S_FIN_REL: pf_we = 1'b1;
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_IDLE;
      ret_q <= S_IDLE;
      hd_valid_q <= 1'b0;
      hd_waiter_q <= 1'b0;
      blocked_q <= 1'b0;
      ld_q <= 1'b0;
      fail_q <= 1'b0;
      short_q <= 1'b0;
      hd_n_q <= '0;
      pi_q <= '0;
      qi_q <= '0;
      pend_q <= '0;
      placed_q <= '0;
      hd_new_q <= '0;
      ei_q <= '0;
      for (int unsigned j = 0; j < MAX_PARAMS; j++) begin
        hd_key_q[j] <= '0;
        hd_acc_q[j] <= '0;
        hd_way_q[j] <= '0;
      end
      sv_pool_top_q <= '0;
      sv_pool_fresh_q <= '0;
      sv_dk_top_q <= '0;
      sv_dk_fresh_q <= '0;
      for (int unsigned j = 0; j < MAXE; j++) begin
        ent_q[j]  <= '0;
        fent_q[j] <= '0;
      end
      pool_top_q <= '0;
      pool_fresh_q <= '0;
      dk_top_q <= '0;
      dk_fresh_q <= '0;
      live_q <= '0;
      e_hold_q <= '0;
      e_wait_q <= '0;
      e_acc_q <= '0;
      e_khead_q <= '0;
      e_klen_q <= '0;
      e_tailn_q <= '0;
      e_dh_v_q <= 1'b0;
      e_dt_v_q <= 1'b0;
      e_dh_q <= '0;
      e_dt_q <= '0;
      for (int unsigned k = 0; k < KOL; k++) e_kol_q[k] <= '0;
      fid_q <= '0;
      fe_q <= '0;
      ko_id_q <= '0;
      emit_id_q <= '0;
      f_waiter_q <= 1'b0;
      f_next_v_q <= 1'b0;
      f_next_q <= '0;
      f_n_q <= '0;
      fkey_q <= '0;
      f_ko_q <= '0;
      rd1_q <= 1'b0;
      lk1_q <= 1'b0;
      lk2_q <= 1'b0;
      fe_cnt_q <= '0;
      emit_waiter_q <= 1'b0;
      ko_refill_q <= 1'b0;
      wq_push <= 1'b0;
      wq_in <= '0;
      err_o <= 1'b0;
      cyc_o <= '0;
      cyc_insert_o <= '0;
      cyc_finish_o <= '0;
      cyc_blocked_o <= '0;
      inserts_o <= '0;
      finishes_o <= '0;
    end else begin
      wq_push <= 1'b0;
      cyc_o   <= cyc_o + 1'b1;
      lk1_q   <= dt_valid && dt_op == nexus_pkg::DtLookup;
      lk2_q   <= lk1_q;
      rd1_q   <= st_q == S_FIN_LK && (PW + 1)'(qi_q) < f_n_q;
      case (st_q)
        S_IDLE, S_EMIT: ;
        S_LOAD_HDR, S_CHK_POOL, S_CHK, S_PL_ALLOC, S_UNDO, S_PL_FINAL:
        cyc_insert_o <= cyc_insert_o + 1'b1;
        default: cyc_finish_o <= cyc_finish_o + 1'b1;
      endcase
      if (st_q == S_EMIT) begin
        if (ret_q == S_IDLE && !f_waiter_q) cyc_insert_o <= cyc_insert_o + 1'b1;
        else cyc_finish_o <= cyc_finish_o + 1'b1;
      end
      if (st_q == S_IDLE && hd_valid_q && blocked_q) cyc_blocked_o <= cyc_blocked_o + 1'b1;

      case (st_q)
        S_IDLE: begin
          f_waiter_q <= 1'b0;
          if (wq_push) begin
            // a waiter made ready is on its way into the queue
          end else if (!wq_empty) begin
            fid_q <= wq_head;
            fe_q <= wq_head;
            f_waiter_q <= 1'b1;
            fe_cnt_q <= '0;
            st_q <= S_FIN_HDR_RD;
          end else if (!fin_empty) begin
            fid_q <= fin_head;
            fe_q <= fin_head;
            fe_cnt_q <= '0;
            if (!live_q[fin_head]) err_o <= 1'b1;
            else st_q <= S_FIN_HDR_RD;
          end else if (hd_valid_q && !blocked_q) begin
            st_q <= S_CHK_POOL;
          end else if (!hd_valid_q && !new_empty) begin
            st_q <= S_LOAD_HDR;
          end
        end

        // ---- insert ----
        S_LOAD_HDR:
        if (!new_empty) begin
          hd_n_q <= new_head[MW-1:0];
          hd_waiter_q <= new_head[5];
          if (!new_head[NW-1] || new_head[4:0] > 5'(MAX_PARAMS)) err_o <= 1'b1;
          else begin
            hd_valid_q <= 1'b1;
            ld_q <= 1'b1;
            st_q <= S_CHK_POOL;
          end
        end
        S_CHK_POOL: begin
          pi_q <= '0;
          qi_q <= '0;
          hd_new_q <= '0;
          placed_q <= '0;
          pend_q <= '0;
          fail_q <= pool_free_n < (IW + 1)'(need);
          short_q <= pool_free_n < (IW + 1)'(need);
          sv_pool_top_q <= pool_top_q;
          sv_pool_fresh_q <= pool_fresh_q;
          sv_dk_top_q <= dk_top_q;
          sv_dk_fresh_q <= dk_fresh_q;
          ei_q <= '0;
          if (hd_n_q == '0 || (!ld_q && pool_free_n < (IW + 1)'(need))) begin
            // Nothing to look up (or, retried, the pool is still short).
            if (pool_free_n < (IW + 1)'(need)) begin
              blocked_q <= 1'b1;
              st_q <= S_IDLE;
            end else st_q <= S_PL_ALLOC;
          end else st_q <= S_CHK;
        end
        // Lookups issued one per cycle, answered 2 cycles later in order;
        // the task's pool entries taken meanwhile, one per cycle. Each
        // answer is checked and kept, and placed at once if it fits (and
        // every parameter before it did). A head that does not fit is
        // loaded whole, what it placed undone, and then it blocks.
        S_CHK: begin
          if (!short_q && ei_q < need) begin
            ent_q[EW'(ei_q)] <= pool_pop;
            if (pool_top_q != '0) pool_top_q <= pool_top_q - 1'b1;
            else pool_fresh_q <= pool_fresh_q + 1'b1;
            if (ei_q == '0) live_q[pool_pop] <= 1'b1;
            ei_q <= ei_q + 1'b1;
          end
          if (dt_valid) begin
            if (ld_q) begin
              hd_key_q[qidx] <= new_head[63:0];
              hd_acc_q[qidx] <= new_head[65:64];
              if (new_head[NW-1]) err_o <= 1'b1;
            end
            qi_q <= qi_q + 1'b1;
          end
          if (lk_rsp) begin
            if (!dt_hit) hd_new_q[pidx] <= 1'b1;
            hd_way_q[pidx] <= dt_hit ? dt_way : dw_free_way;
            if (chk_fail) fail_q <= 1'b1;
            if (place) begin
              placed_q <= placed_q + 1'b1;
              if (p_append) pend_q <= pend_q + 1'b1;
              if (p_take_dummy) begin
                if (dk_top_q != '0) dk_top_q <= dk_top_q - 1'b1;
                else dk_fresh_q <= dk_fresh_q + 1'b1;
              end
            end
            if (pi_q + 1'b1 == hd_n_q) begin
              ld_q <= 1'b0;
              pi_q <= '0;
              ei_q <= '0;
              st_q <= fail_q || chk_fail ? S_UNDO : S_PL_FINAL;
            end else pi_q <= pi_q + 1'b1;
          end
        end
        // One placed parameter undone per cycle, then the free stacks and
        // the pool entry restored: the unit is as before the insertion.
        S_UNDO:
        if (undo) pi_q <= pi_q + 1'b1;
        else begin
          pi_q <= '0;
          pool_top_q <= sv_pool_top_q;
          pool_fresh_q <= sv_pool_fresh_q;
          dk_top_q <= sv_dk_top_q;
          dk_fresh_q <= sv_dk_fresh_q;
          if (!short_q) live_q[ent_q[0]] <= 1'b0;
          blocked_q <= 1'b1;
          st_q <= S_IDLE;
        end
        // A task without parameters: its pool entry.
        S_PL_ALLOC: begin
          ent_q[EW'(ei_q)] <= pool_pop;
          if (pool_top_q != '0) pool_top_q <= pool_top_q - 1'b1;
          else pool_fresh_q <= pool_fresh_q + 1'b1;
          if (ei_q == '0) live_q[pool_pop] <= 1'b1;
          pend_q <= '0;
          if (ei_q + 1'b1 == need) begin
            ei_q <= '0;
            pi_q <= '0;
            st_q <= S_PL_FINAL;
          end else ei_q <= ei_q + 1'b1;
        end
        S_PL_FINAL: begin
          if (ei_q + 1'b1 == need) begin
            hd_valid_q <= 1'b0;
            inserts_o <= inserts_o + 1'b1;
            emit_id_q <= ent_q[0];
            emit_waiter_q <= 1'b0;
            ret_q <= S_IDLE;
            if (pend_q != '0) st_q <= S_IDLE;
            else if (hd_waiter_q) begin
              wq_push <= 1'b1;
              wq_in <= ent_q[0];
              st_q <= S_IDLE;
            end else st_q <= S_EMIT;
          end else ei_q <= ei_q + 1'b1;
        end

        // ---- finish ----
        S_FIN_HDR_RD: st_q <= S_FIN_HDR;
        S_FIN_HDR: begin
          fent_q[EW'(fe_cnt_q)] <= fe_q;
          fe_cnt_q <= fe_cnt_q + 1'b1;
          f_n_q <= hdr_rd[PW:0];
          f_next_v_q <= hdr_rd[IW+PW+1];
          f_next_q <= hdr_rd[IW+PW:PW+1];
          pi_q <= '0;
          qi_q <= '0;
          f_ko_q <= '0;
          st_q <= hdr_rd[PW:0] == '0 ? S_FIN_PNEXT : S_FIN_LK;
        end
        // The entry's parameters read one per cycle, each looked up as it
        // arrives; an entry that kicks nobody off is written back by the
        // direct port as its answer arrives, the others kept (hd_st, f_key)
        // for S_FIN_LD.
        S_FIN_LK: begin
          if ((PW + 1)'(qi_q) < f_n_q) qi_q <= qi_q + 1'b1;
          if (lk_rsp) begin
            f_ko_q <= ko_all;
            if (!dt_hit) begin
              err_o <= 1'b1;
              st_q  <= S_IDLE;
            end else if ((PW + 1)'(pi_q) + 1'b1 == f_n_q) begin
              pi_q <= MW'(ko_first);
              st_q <= ko_first == (PW + 1)'(PARAMS) ? S_FIN_PNEXT : S_FIN_LD;
            end else pi_q <= pi_q + 1'b1;
          end
        end
        // A kept entry with tasks to kick off: its Kick-Off List served.
        S_FIN_LD: begin
          e_hold_q <= r_hold - 1'b1;
          e_wait_q <= r_wait;
          e_acc_q <= r_acc;
          e_khead_q <= r_khead;
          e_klen_q <= r_klen;
          e_tailn_q <= r_tailn;
          e_dh_v_q <= r_dh_v;
          e_dt_v_q <= r_dt_v;
          e_dh_q <= r_dh;
          e_dt_q <= r_dt;
          for (int unsigned k = 0; k < KOL; k++) e_kol_q[k] <= r_kol[k];
          fkey_q <= f_key_rd;
          st_q <= S_KO;
        end
        S_KO:
        if (e_hold_q != '0 && !(concurrent(front[1:0]) && front[1:0] == e_acc_q)) st_q <= S_FIN_WB;
        else begin
          ko_id_q <= front[SW-1:2];
          e_khead_q <= e_khead_q + 1'b1;
          e_klen_q <= e_klen_q - 1'b1;
          e_wait_q <= e_wait_q - 1'b1;
          if (e_hold_q == '0) e_acc_q <= front[1:0];
          e_hold_q <= e_hold_q + 1'b1;
          ko_refill_q <= e_klen_q == (KW + 1)'(1) && e_dh_v_q;
          st_q <= S_KO_CNT;
        end
        // The count decremented; the Ready word written (or the waiter
        // queued) in the same cycle; the next waiter of a concurrent class.
        S_KO_CNT:
        if (!ko_stall) begin
          if (ko_refill_q) begin
            // The entry's list ran dry: its first Dummy Kick-Off List
            // moves in and goes back to the free stack.
            for (int unsigned k = 0; k < KOL; k++) e_kol_q[k] <= dks_rd[k*SW+:SW];
            e_khead_q <= '0;
            e_klen_q <= e_dt_v_q && e_dh_q == e_dt_q ? e_tailn_q : (KW + 1)'(KOL);
            e_dh_v_q <= e_dh_q != e_dt_q;
            e_dh_q <= dkn_rd;
            if (e_dh_q == e_dt_q) begin
              e_dt_v_q <= 1'b0;
              e_tailn_q <= '0;
            end
            dk_top_q <= dk_top_q + 1'b1;
          end
          if (ko_count == '0 && cnt_rd[CW]) begin
            wq_push <= 1'b1;
            wq_in <= ko_id_q;
          end
          st_q <= e_wait_q != '0 && concurrent(e_acc_q) ? S_KO : S_FIN_WB;
        end
        S_FIN_WB:
        if (ko_next != (PW + 1)'(PARAMS)) begin
          pi_q <= MW'(ko_next);
          st_q <= S_FIN_LD;
        end else st_q <= S_FIN_PNEXT;
        S_FIN_PNEXT:
        if (f_next_v_q) begin
          fe_q <= f_next_q;
          st_q <= S_FIN_HDR_RD;
        end else begin
          ei_q <= '0;
          live_q[fid_q] <= 1'b0;
          st_q <= S_FIN_REL;
        end
        S_FIN_REL: begin
          pool_top_q <= pool_top_q + 1'b1;
          if (ei_q + 1'b1 == fe_cnt_q) begin
            finishes_o <= finishes_o + 1'b1;
            blocked_q <= 1'b0;
            emit_id_q <= fid_q;
            emit_waiter_q <= 1'b1;
            ret_q <= S_IDLE;
            st_q <= f_waiter_q ? S_EMIT : S_IDLE;
          end else ei_q <= ei_q + 1'b1;
        end

        S_EMIT: if (!rdy_full) st_q <= ret_q;
        default: st_q <= S_IDLE;
      endcase
    end
  end

  // Nothing to do until a word arrives: no operation, no waiter, no
  // finished word, and no head (or one that does not fit).
  assign idle_o = st_q == S_IDLE && wq_empty && !wq_push && fin_empty && (hd_valid_q ? blocked_q : new_empty);
  assign blocked_o = hd_valid_q && blocked_q;

`ifndef SYNTHESIS
  initial begin
    if (MAX_PARAMS > 31) $fatal(1, "nexus_task_maestro: MAX_PARAMS=%0d is above 31", MAX_PARAMS);
    if ((PARAMS & (PARAMS - 1)) != 0 || (POOL & (POOL - 1)) != 0 || (KOL & (KOL - 1)) != 0 || (DUMMY_KOL & (DUMMY_KOL - 1)) != 0 || (MAX_PARAMS & (MAX_PARAMS - 1)) != 0)
      $fatal(1, "nexus_task_maestro: POOL, PARAMS, MAX_PARAMS, KOL and DUMMY_KOL must be powers of two");
  end
`endif
endmodule

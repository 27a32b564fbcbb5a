// The HWSE (papers/hwse-openmp-scheduling-engine.txt, section V, Fig. 7):
// a control FSM serving INIT / FETCH / END through memory-mapped registers,
// the loop datapath (dynamic, guided and sections), the circular FIFO and
// the memory-bin allocator that reuses the loop datapath on a second
// register set. The register map is in hwse_pkg.
//
// Port: one access at a time. An access is taken on a rising edge with
// req_valid_i && req_ready_o; its response (rsp_valid_o for one cycle,
// rsp_rdata_o, rsp_error_o) follows one cycle later, except a guided FETCH
// that has iterations left, which runs the divider first
// (XLEN / DIV_BITS + 2 cycles in all); req_ready_o is low meanwhile.
// Every write answers too (FREE's data is 1 when the FIFO took the bin).
// rsp_error_o: an unknown address, a read of a write-only register or the
// other way round, a zero LOOP_INCR / HEAP_INCR, an END of a thread >=
// NTHREADS; nothing changes. None (all ones) answers a FETCH or an ALLOC
// with nothing left.
module hwse #(
    parameter int unsigned XLEN = hwse_pkg::XlenDefault,
    parameter int unsigned FIFO_DEPTH = hwse_pkg::FifoDepthDefault,
    parameter int unsigned NTHREADS = hwse_pkg::NThreadsDefault,
    parameter int unsigned DIV_BITS = hwse_pkg::DivBitsDefault
) (
    input  logic                           clk_i,
    input  logic                           rst_ni,
    input  logic                           req_valid_i,
    input  logic                           req_write_i,
    input  logic [hwse_pkg::AddrWidth-1:0] req_addr_i,
    input  logic [               XLEN-1:0] req_wdata_i,
    output logic                           req_ready_o,
    output logic                           rsp_valid_o,
    output logic                           rsp_error_o,
    output logic [               XLEN-1:0] rsp_rdata_o
);
  localparam int unsigned WS = hwse_pkg::WsWidth;
  localparam logic [XLEN-1:0] None = '1;

  // The control FSM: Idle takes accesses; Divide waits for the guided share.
  typedef enum logic {
    Idle,
    Divide
  } state_e;
  state_e state_q;

  // Register sets.
  logic [XLEN-1:0] loop_start_q, loop_end_q, loop_incr_q, members_q, iend_q;
  logic [XLEN-1:0] heap_start_q, heap_end_q, heap_incr_q;
  logic [WS-1:0] ws_q[0:NTHREADS-1];

  logic accept, rd, wr;
  assign req_ready_o = state_q == Idle;
  assign accept = req_valid_i && req_ready_o;
  assign rd = accept && !req_write_i;
  assign wr = accept && req_write_i;

  // The loop datapath, on the loop registers or (ALLOC) the heap registers.
  logic dp_heap, dp_sections, dp_got;
  logic [XLEN-1:0] dp_share, dp_begin, dp_end;
  logic div_done;
  logic [XLEN-1:0] div_quotient;

  assign dp_heap = req_addr_i == hwse_pkg::RegAlloc;
  assign dp_sections = req_addr_i == hwse_pkg::RegSectionsFetch;
  assign dp_share = state_q == Divide ? div_quotient : '0;

  hwse_loop_datapath #(
      .XLEN(XLEN)
  ) u_datapath (
      .start_i(dp_heap ? heap_start_q : loop_start_q),
      .end_i  (dp_heap ? heap_end_q : loop_end_q),
      .incr_i (dp_heap ? heap_incr_q : (dp_sections ? XLEN'(1) : loop_incr_q)),
      .share_i(dp_share),
      .got_o  (dp_got),
      .begin_o(dp_begin),
      .end_o  (dp_end)
  );

  // A guided FETCH with iterations left divides what is left by the members.
  logic div_start;
  assign div_start = rd && req_addr_i == hwse_pkg::RegFetchIstart && members_q != '0 && dp_got;

  hwse_divider #(
      .W(XLEN),
      .BITS(DIV_BITS)
  ) u_divider (
      .clk_i,
      .rst_ni,
      .start_i(div_start),
      .dividend_i(loop_end_q - loop_start_q),
      .divisor_i(members_q),
      .done_o(div_done),
      .quotient_o(div_quotient)
  );

  // The FIFO of freed bins.
  logic fifo_push, fifo_pop, fifo_clear, fifo_empty, fifo_full;
  logic [XLEN-1:0] fifo_head;
  logic [$clog2(FIFO_DEPTH):0] fifo_count;

  assign fifo_clear = wr && req_addr_i == hwse_pkg::RegHeapStart;
  assign fifo_push = wr && req_addr_i == hwse_pkg::RegFree;
  assign fifo_pop = rd && req_addr_i == hwse_pkg::RegAlloc && !dp_got;

  hwse_fifo #(
      .DEPTH(FIFO_DEPTH),
      .WIDTH(XLEN)
  ) u_fifo (
      .clk_i,
      .rst_ni,
      .clear_i(fifo_clear),
      .push_i (fifo_push),
      .data_i (req_wdata_i),
      .pop_i  (fifo_pop),
      .head_o (fifo_head),
      .empty_o(fifo_empty),
      .full_o (fifo_full),
      .count_o(fifo_count)
  );

  // The thread an END or a work-share register read names.
  logic [XLEN-1:0] ws_index;
  logic end_ok, ws_read_ok;
  assign end_ok = req_wdata_i < XLEN'(NTHREADS);
  assign ws_index = XLEN'(req_addr_i) - XLEN'(hwse_pkg::RegWsBase);
  assign ws_read_ok = req_addr_i >= hwse_pkg::RegWsBase && ws_index < XLEN'(NTHREADS);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= Idle;
      loop_start_q <= '0;
      loop_end_q   <= '0;
      loop_incr_q  <= XLEN'(1);
      members_q    <= '0;
      iend_q       <= None;
      heap_start_q <= '0;
      heap_end_q   <= '0;
      heap_incr_q  <= XLEN'(1);
      rsp_valid_o  <= 1'b0;
      rsp_error_o  <= 1'b0;
      rsp_rdata_o  <= '0;
      for (int unsigned t = 0; t < NTHREADS; t++) ws_q[t] <= '0;
    end else begin
      rsp_valid_o <= 1'b0;
      rsp_error_o <= 1'b0;
      rsp_rdata_o <= '0;
      if (state_q == Divide) begin
        // Guided FETCH: the share is ready; hand out the chunk.
        if (div_done) begin
          loop_start_q <= dp_end;
          iend_q       <= dp_end;
          rsp_rdata_o  <= dp_begin;
          rsp_valid_o  <= 1'b1;
          state_q      <= Idle;
        end
      end else if (wr) begin
        rsp_valid_o <= 1'b1;
        case (req_addr_i)
          hwse_pkg::RegLoopStart: begin
            loop_start_q <= req_wdata_i;
            members_q    <= '0;
          end
          hwse_pkg::RegLoopEnd: loop_end_q <= req_wdata_i;
          hwse_pkg::RegLoopIncr:
          if (req_wdata_i == '0) rsp_error_o <= 1'b1;
          else loop_incr_q <= req_wdata_i;
          hwse_pkg::RegLoopMembers: members_q <= req_wdata_i;
          hwse_pkg::RegSectionsInit: begin
            loop_start_q <= '0;
            loop_end_q   <= req_wdata_i;
            loop_incr_q  <= XLEN'(1);
            members_q    <= '0;
          end
          hwse_pkg::RegEnd:
          if (end_ok) ws_q[req_wdata_i[$clog2(NTHREADS)-1:0]] <= ws_q[req_wdata_i[$clog2(NTHREADS)-1:0]] + 1'b1;
          else rsp_error_o <= 1'b1;
          hwse_pkg::RegHeapStart: heap_start_q <= req_wdata_i;
          hwse_pkg::RegHeapEnd: heap_end_q <= req_wdata_i;
          hwse_pkg::RegHeapIncr:
          if (req_wdata_i == '0) rsp_error_o <= 1'b1;
          else heap_incr_q <= req_wdata_i;
          hwse_pkg::RegFree: rsp_rdata_o <= XLEN'(!fifo_full);
          default: rsp_error_o <= 1'b1;
        endcase
      end else if (rd) begin
        rsp_valid_o <= 1'b1;
        case (req_addr_i)
          hwse_pkg::RegLoopStart: rsp_rdata_o <= loop_start_q;
          hwse_pkg::RegLoopEnd: rsp_rdata_o <= loop_end_q;
          hwse_pkg::RegLoopIncr: rsp_rdata_o <= loop_incr_q;
          hwse_pkg::RegLoopMembers: rsp_rdata_o <= members_q;
          hwse_pkg::RegSectionsFetch:
          if (dp_got) begin
            loop_start_q <= dp_end;
            rsp_rdata_o  <= dp_begin;
          end else rsp_rdata_o <= None;
          hwse_pkg::RegFetchIstart:
          if (!dp_got) begin
            iend_q      <= None;
            rsp_rdata_o <= None;
          end else if (members_q != '0) begin
            rsp_valid_o <= 1'b0;  // answered from Divide
            state_q     <= Divide;
          end else begin
            loop_start_q <= dp_end;
            iend_q       <= dp_end;
            rsp_rdata_o  <= dp_begin;
          end
          hwse_pkg::RegFetchIend: rsp_rdata_o <= iend_q;
          hwse_pkg::RegHeapStart: rsp_rdata_o <= heap_start_q;
          hwse_pkg::RegHeapEnd: rsp_rdata_o <= heap_end_q;
          hwse_pkg::RegHeapIncr: rsp_rdata_o <= heap_incr_q;
          hwse_pkg::RegAlloc:
          if (dp_got) begin
            heap_start_q <= dp_end;
            rsp_rdata_o  <= dp_begin;
          end else rsp_rdata_o <= fifo_empty ? None : fifo_head;
          hwse_pkg::RegStatus: rsp_rdata_o <= XLEN'(fifo_count);
          default:
          if (ws_read_ok) rsp_rdata_o <= XLEN'(ws_q[ws_index[$clog2(NTHREADS)-1:0]]);
          else rsp_error_o <= 1'b1;
        endcase
      end
    end
  end

`ifndef SYNTHESIS
  initial begin
    if (FIFO_DEPTH != 32 && FIFO_DEPTH != 64 && FIFO_DEPTH != 128)
      $fatal(1, "hwse: FIFO_DEPTH=%0d (the paper's unit has 32, 64 or 128 entries)", FIFO_DEPTH);
    if (NTHREADS < 2 || NTHREADS > 32 || (NTHREADS & (NTHREADS - 1)) != 0)
      $fatal(1, "hwse: NTHREADS=%0d (a power of two in [2, 32])", NTHREADS);
  end
`endif
endmodule

// The FETCH datapath of the loop scheduler (section V-A), combinational: from
// LOOP_START, LOOP_END, LOOP_INCR and a guided share (0 for dynamic chunks),
// the next chunk [begin, end) and whether there is one. The quantum is
// max(incr, share); the chunk ends at LOOP_END when the quantum covers what
// is left, so it never overshoots LOOP_END whatever the values. The same
// datapath serves the memory-bin allocator's heap registers.
module hwse_loop_datapath #(
    parameter int unsigned XLEN = hwse_pkg::XlenDefault
) (
    input  logic [XLEN-1:0] start_i,
    input  logic [XLEN-1:0] end_i,
    input  logic [XLEN-1:0] incr_i,
    input  logic [XLEN-1:0] share_i,
    output logic            got_o,
    output logic [XLEN-1:0] begin_o,
    output logic [XLEN-1:0] end_o
);
  logic [XLEN-1:0] left, quantum;

  assign left = end_i - start_i;
  assign quantum = share_i > incr_i ? share_i : incr_i;
  assign got_o = start_i < end_i;
  assign begin_o = start_i;
  assign end_o = quantum >= left ? end_i : start_i + quantum;
endmodule

// The Nexus++ Dependence Table (section III, Table I): SETS sets of WAYS
// entries, each a key (the address, with the domain tag folded in) and an
// entry state of WIDTH bits (holders, access class, Kick-Off List pointers:
// the Task Maestro's business). "One visit per lookup": an operation reads
// the set's ways once, compares every tag at once and writes at most one way.
//
// The key is {domain tag[15:0], address[47:0]}; its set is the functional
// model's (nexus_pkg::set_hash).
//
// Port: pipelined, one operation per cycle (req_ready_o is always high).
// Stage 1, the edge that takes an operation: the set's ways are read (tags
// and states are inferable memories, one per way, with a synchronous read).
// Stage 2, the next cycle: every tag is compared, at most one way is written,
// and the response (rsp_valid_o for one cycle) is registered on the edge
// after. An operation's response is seen 2 cycles after the cycle it was
// presented in, whatever the operations around it.
// Hazard: an operation taken on the edge where its predecessor writes the
// same set reads that way's old tag and state; the written way's key and
// state are forwarded into its compare (the valid bits are flip-flops,
// already current), so back-to-back operations on one set see each other
// in order, as if one at a time.
// rsp_hit_o: the key was present; rsp_data_o: its state before the operation;
// rsp_way_o: the way it was found in; rsp_full_o: an INSERT of a new key
// found no free way (a set conflict; nothing changed). INSERT takes the
// lowest free way.
//
// The direct write port (wr_valid_i): a write that needs no lookup of its
// own, in the cycle it is presented (on that edge), beside the pipeline's
// operations: WrNew writes a new key into the lowest free way of its set
// (wr_way_o, from the valid bits; the caller knows one is free), WrWay
// writes way wr_way_i of the key's set (a key found by a lookup), WrFree
// frees way wr_way_i. The Task Maestro places an inserted task's
// parameters with it while its next lookups go through the pipeline. It
// shares the memories' one write port with the pipeline's compare-cycle
// writes: the caller never presents it while an INSERT, UPDATE or DELETE
// is in its compare cycle (checked in simulation). A lookup in flight sees
// it as it sees a pipeline write (forwarded when made on the edge that took
// the lookup; a later one writes another key's way, which the lookup's
// answer does not depend on). Area: a multiplexer on each way's write port and the first
// free way of the written set; no second memory port.
module nexus_dependence_table #(
    parameter int unsigned SETS = nexus_pkg::DtSetsDefault,
    parameter int unsigned WAYS = nexus_pkg::DtWaysDefault,
    parameter int unsigned KEY_W = nexus_pkg::KeyWidthDefault,
    parameter int unsigned WIDTH = nexus_pkg::EntryWidthDefault,
    localparam int unsigned WB = WAYS > 1 ? $clog2(WAYS) : 1
) (
    input  logic             clk_i,
    input  logic             rst_ni,
    input  logic             req_valid_i,
    input  logic [      1:0] req_op_i,
    input  logic [KEY_W-1:0] req_key_i,
    input  logic [WIDTH-1:0] req_data_i,
    output logic             req_ready_o,
    output logic             rsp_valid_o,
    output logic             rsp_hit_o,
    output logic             rsp_full_o,
    output logic [WIDTH-1:0] rsp_data_o,
    output logic [   WB-1:0] rsp_way_o,
    // The direct write port.
    input  logic             wr_valid_i,
    input  logic [      1:0] wr_op_i,
    input  logic [KEY_W-1:0] wr_key_i,
    input  logic [   WB-1:0] wr_way_i,
    input  logic [WIDTH-1:0] wr_data_i,
    output logic [   WB-1:0] wr_way_o
);
  localparam int unsigned SB = $clog2(SETS);

  // The set of a key: the low SB bits of nexus_pkg::set_hash.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [SB-1:0] set_of(logic [KEY_W-1:0] k);
    logic [15:0] h;
    h = nexus_pkg::set_hash(64'(k));
    set_of = h[SB-1:0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  logic busy_q;  // an operation is in its compare cycle
  // The write made on the edge that took the operation now comparing.
  logic fw_q;
  logic [SB-1:0] fw_set_q;
  logic [WB-1:0] fw_way_q;
  logic [KEY_W-1:0] fw_key_q;
  logic [WIDTH-1:0] fw_data_q;
  logic [1:0] op_q;
  logic [KEY_W-1:0] key_q;
  logic [WIDTH-1:0] data_q;
  logic [SB-1:0] set_q;

  logic [SETS-1:0] valid_q[0:WAYS-1];
  logic [KEY_W-1:0] tag_rd[0:WAYS-1];
  logic [WIDTH-1:0] state_rd[0:WAYS-1];

  assign req_ready_o = 1'b1;
  logic accept;
  assign accept = req_valid_i;

  // The ways as they are now: the read, or the write it missed.
  logic [KEY_W-1:0] tag_cur[0:WAYS-1];
  logic [WIDTH-1:0] state_cur[0:WAYS-1];
  always_comb
    for (int w = 0; w < WAYS; w++) begin
      tag_cur[w]   = tag_rd[w];
      state_cur[w] = state_rd[w];
      if (fw_q && fw_set_q == set_q && fw_way_q == WB'(w)) begin
        tag_cur[w]   = fw_key_q;
        state_cur[w] = fw_data_q;
      end
    end

  // The compare cycle: hit way and first free way.
  logic hit, free_found;
  logic [WB-1:0] hit_way, free_way;
  always_comb begin
    hit = 1'b0;
    hit_way = '0;
    free_found = 1'b0;
    free_way = '0;
    for (int w = WAYS - 1; w >= 0; w--) begin
      if (valid_q[w][set_q] && tag_cur[w] == key_q) begin
        hit = 1'b1;
        hit_way = WB'(w);
      end
      if (!valid_q[w][set_q]) begin
        free_found = 1'b1;
        free_way = WB'(w);
      end
    end
  end

  logic write_en;
  logic [WB-1:0] write_way;
  always_comb begin
    write_en = 1'b0;
    write_way = hit_way;
    if (busy_q)
      case (op_q)
        nexus_pkg::DtInsert: begin
          write_en  = hit || free_found;
          write_way = hit ? hit_way : free_way;
        end
        nexus_pkg::DtUpdate: write_en = hit;
        default: ;
      endcase
  end

  // The direct write: its set, the lowest free way there (WrNew), the way
  // written or freed.
  logic [SB-1:0] wr_set;
  logic [WB-1:0] wr_free_way, wr_way;
  logic wr_mem;  // the direct write writes a tag and a state
  assign wr_set = set_of(wr_key_i);
  always_comb begin
    wr_free_way = '0;
    for (int w = WAYS - 1; w >= 0; w--) if (!valid_q[w][wr_set]) wr_free_way = WB'(w);
  end
  assign wr_way_o = wr_free_way;
  assign wr_way = wr_op_i == nexus_pkg::WrNew ? wr_free_way : wr_way_i;
  assign wr_mem = wr_valid_i && wr_op_i != nexus_pkg::WrFree;

  // The memories' one write port: the compare cycle's write or the direct
  // one (never both).
  logic mem_we;
  logic [SB-1:0] mem_set;
  logic [WB-1:0] mem_way;
  logic [KEY_W-1:0] mem_key;
  logic [WIDTH-1:0] mem_data;
  assign mem_we = write_en || wr_mem;
  assign mem_set = wr_mem ? wr_set : set_q;
  assign mem_way = wr_mem ? wr_way : write_way;
  assign mem_key = wr_mem ? wr_key_i : key_q;
  assign mem_data = wr_mem ? wr_data_i : data_q;

  // One memory per way: tags and states, written in the compare cycle (or
  // by the direct port), read on the edge that takes an operation.
  for (genvar w = 0; w < WAYS; w++) begin : g_way
    logic [KEY_W-1:0] tags[0:SETS-1];
    logic [WIDTH-1:0] states[0:SETS-1];
    always_ff @(posedge clk_i) begin
      if (mem_we && mem_way == WB'(w)) begin
        tags[mem_set]   <= mem_key;
        states[mem_set] <= mem_data;
      end
      if (accept) begin
        tag_rd[w]   <= tags[set_of(req_key_i)];
        state_rd[w] <= states[set_of(req_key_i)];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      op_q <= '0;
      key_q <= '0;
      data_q <= '0;
      set_q <= '0;
      rsp_valid_o <= 1'b0;
      rsp_hit_o <= 1'b0;
      rsp_full_o <= 1'b0;
      rsp_data_o <= '0;
      rsp_way_o <= '0;
      fw_q <= 1'b0;
      fw_set_q <= '0;
      fw_way_q <= '0;
      fw_key_q <= '0;
      fw_data_q <= '0;
      for (int w = 0; w < WAYS; w++) valid_q[w] <= '0;
    end else begin
      rsp_valid_o <= 1'b0;
      fw_q <= mem_we;
      fw_set_q <= mem_set;
      fw_way_q <= mem_way;
      fw_key_q <= mem_key;
      fw_data_q <= mem_data;
      busy_q <= accept;
      if (accept) begin
        op_q   <= req_op_i;
        key_q  <= req_key_i;
        data_q <= req_data_i;
        set_q  <= set_of(req_key_i);
      end
      if (busy_q) begin
        rsp_valid_o <= 1'b1;
        rsp_hit_o <= hit;
        rsp_data_o <= hit ? state_cur[hit_way] : '0;
        rsp_way_o <= hit_way;
        rsp_full_o <= op_q == nexus_pkg::DtInsert && !hit && !free_found;
        if (write_en) valid_q[write_way][set_q] <= 1'b1;
        if (op_q == nexus_pkg::DtDelete && hit) valid_q[hit_way][set_q] <= 1'b0;
      end
      if (wr_valid_i) valid_q[wr_way][wr_set] <= wr_op_i != nexus_pkg::WrFree;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i)
    if (wr_valid_i && busy_q && op_q != nexus_pkg::DtLookup) $fatal(1, "nexus_dependence_table: a direct write in the compare cycle of a write");
  initial begin
    if ((SETS & (SETS - 1)) != 0 || SETS < 2 || SETS > 65536) $fatal(1, "nexus_dependence_table: SETS=%0d is not a power of two in 2..65536", SETS);
    if (KEY_W != 64) $fatal(1, "nexus_dependence_table: KEY_W=%0d is not 64", KEY_W);
  end
`endif
endmodule

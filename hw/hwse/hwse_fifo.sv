// The HWSE's circular FIFO (section V-A): DEPTH entries of WIDTH bits, a
// power of two. The storage is a plain array with one synchronous write port
// and one asynchronous read port (the head), so synthesis infers a memory.
// push when full and pop when empty are ignored; clear empties it.
module hwse_fifo #(
    parameter int unsigned DEPTH = hwse_pkg::FifoDepthDefault,
    parameter int unsigned WIDTH = hwse_pkg::XlenDefault
) (
    input  logic                   clk_i,
    input  logic                   rst_ni,
    input  logic                   clear_i,
    input  logic                   push_i,
    input  logic [      WIDTH-1:0] data_i,
    input  logic                   pop_i,
    output logic [      WIDTH-1:0] head_o,
    output logic                   empty_o,
    output logic                   full_o,
    output logic [$clog2(DEPTH):0] count_o
);
  localparam int unsigned PW = $clog2(DEPTH);

  logic [WIDTH-1:0] mem[0:DEPTH-1];
  logic [PW:0] head_q, tail_q;  // one wrap bit above the index

  assign count_o = tail_q - head_q;
  assign empty_o = head_q == tail_q;
  assign full_o = count_o == DEPTH[PW:0];
  assign head_o = mem[head_q[PW-1:0]];

  always_ff @(posedge clk_i) begin
    if (push_i && !full_o && !clear_i) mem[tail_q[PW-1:0]] <= data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q <= '0;
      tail_q <= '0;
    end else if (clear_i) begin
      head_q <= '0;
      tail_q <= '0;
    end else begin
      if (push_i && !full_o) tail_q <= tail_q + 1'b1;
      if (pop_i && !empty_o) head_q <= head_q + 1'b1;
    end
  end

`ifndef SYNTHESIS
  initial begin
    if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0) $fatal(1, "hwse_fifo: DEPTH=%0d is not a power of two >= 2", DEPTH);
  end
`endif
endmodule

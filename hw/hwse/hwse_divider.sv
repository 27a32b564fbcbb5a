// A sequential restoring divider for the guided schedule's share:
// ceil(dividend / divisor), BITS quotient bits per cycle, W / BITS cycles
// after start_i. done_o is high for one cycle with the quotient; start_i
// while busy restarts. divisor_i must not be 0 (the unit never starts it so).
module hwse_divider #(
    parameter int unsigned W = hwse_pkg::XlenDefault,
    parameter int unsigned BITS = hwse_pkg::DivBitsDefault
) (
    input  logic         clk_i,
    input  logic         rst_ni,
    input  logic         start_i,
    input  logic [W-1:0] dividend_i,
    input  logic [W-1:0] divisor_i,
    output logic         done_o,
    output logic [W-1:0] quotient_o
);
  localparam int unsigned STEPS = W / BITS;
  localparam int unsigned CW = $clog2(STEPS + 1);

  logic [W:0] rem_q, rem_d;  // partial remainder, < 2 * divisor
  logic [W-1:0] quo_q, quo_d;  // dividend bits still to shift in, then quotient
  logic [W-1:0] div_q;
  logic [CW-1:0] cnt_q;
  logic busy_q, done_q;

  always_comb begin
    rem_d = rem_q;
    quo_d = quo_q;
    for (int unsigned i = 0; i < BITS; i++) begin
      rem_d = {rem_d[W-1:0], quo_d[W-1]};
      quo_d = {quo_d[W-2:0], 1'b0};
      if (rem_d >= {1'b0, div_q}) begin
        rem_d = rem_d - {1'b0, div_q};
        quo_d[0] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rem_q  <= '0;
      quo_q  <= '0;
      div_q  <= '0;
      cnt_q  <= '0;
      busy_q <= 1'b0;
      done_q <= 1'b0;
    end else if (start_i) begin
      rem_q  <= '0;
      quo_q  <= dividend_i;
      div_q  <= divisor_i;
      cnt_q  <= '0;
      busy_q <= 1'b1;
      done_q <= 1'b0;
    end else if (busy_q) begin
      rem_q <= rem_d;
      quo_q <= quo_d;
      cnt_q <= cnt_q + 1'b1;
      if (cnt_q == CW'(STEPS - 1)) begin
        busy_q <= 1'b0;
        done_q <= 1'b1;
      end
    end else begin
      done_q <= 1'b0;
    end
  end

  assign done_o = done_q;
  assign quotient_o = quo_q + {{(W - 1) {1'b0}}, rem_q != '0};

`ifndef SYNTHESIS
  initial begin
    if (W % BITS != 0) $fatal(1, "hwse_divider: W=%0d is not a multiple of BITS=%0d", W, BITS);
  end
`endif
endmodule

// The HWSE's configuration: parameter defaults and the memory-mapped
// register map (papers/hwse-openmp-scheduling-engine.txt, section V-A).
// Addresses are word indices on the unit's port; every register is XLEN bits.
package hwse_pkg;

  // Defaults of the unit's parameters (hwse.sv).
  parameter int unsigned XlenDefault = 64;      // register and address width
  parameter int unsigned FifoDepthDefault = 128;  // 32, 64 or 128 (the paper)
  parameter int unsigned NThreadsDefault = 16;  // per-thread work-share registers
  parameter int unsigned DivBitsDefault = 4;    // quotient bits per divider cycle
  parameter int unsigned WsWidth = 16;          // a thread's work-share register

  parameter int unsigned AddrWidth = 6;

  // Loop / sections register set (read and write).
  parameter logic [5:0] RegLoopStart = 6'd0;    // W: also selects dynamic mode
  parameter logic [5:0] RegLoopEnd = 6'd1;
  parameter logic [5:0] RegLoopIncr = 6'd2;     // W 0: error, unchanged
  parameter logic [5:0] RegLoopMembers = 6'd3;  // W n > 0: guided over n members
  // Primitives.
  parameter logic [5:0] RegSectionsInit = 6'd4;   // W count: sections INIT
  parameter logic [5:0] RegSectionsFetch = 6'd5;  // R: next section, or None
  parameter logic [5:0] RegFetchIstart = 6'd6;    // R: FETCH, chunk start or None
  parameter logic [5:0] RegFetchIend = 6'd7;      // R: end of the last FETCH's chunk
  parameter logic [5:0] RegEnd = 6'd8;            // W thread id: END
  // Memory-bin allocator: the heap register set (the loop datapath reused).
  parameter logic [5:0] RegHeapStart = 6'd9;    // W: heap INIT, empties the FIFO
  parameter logic [5:0] RegHeapEnd = 6'd10;
  parameter logic [5:0] RegHeapIncr = 6'd11;    // bin size; W 0: error
  parameter logic [5:0] RegAlloc = 6'd12;       // R: a bin, or None
  parameter logic [5:0] RegFree = 6'd13;        // W bin: response 1 taken, 0 FIFO full
  parameter logic [5:0] RegStatus = 6'd14;      // R: FIFO occupancy
  parameter logic [5:0] RegWsBase = 6'd16;      // R: thread t's register at 16 + t

endpackage

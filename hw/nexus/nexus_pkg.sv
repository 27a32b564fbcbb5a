// The Nexus++ Task Maestro's configuration (papers/nexus-vss-hardware-task-
// manager.txt, section III, Table I): parameter defaults, the Dependence
// Table's operations, the key format and its set function.
// Not every block uses every value.
/* verilator lint_off UNUSEDPARAM */
package nexus_pkg;

  parameter int unsigned PoolDefault = 1024;  // Task Pool entries
  parameter int unsigned ParamsDefault = 8;  // parameters per Task Pool entry
  parameter int unsigned MaxParamsDefault = 16;  // parameters per task (dummy entries beyond ParamsDefault)
  parameter int unsigned DtSetsDefault = 256;  // Dependence Table sets
  parameter int unsigned DtWaysDefault = 8;  // ways per set
  parameter int unsigned KolDefault = 8;  // task ids per Kick-Off List
  parameter int unsigned DummyKolDefault = 1024;  // Dummy Kick-Off List table
  parameter int unsigned NewFifoDefault = 32;  // New FIFO words
  parameter int unsigned ReadyFifoDefault = 32;  // Ready FIFO words
  parameter int unsigned FinishedFifoDefault = 32;  // Finished FIFO words
  parameter int unsigned KeyWidthDefault = 64;  // {domain tag[15:0], address[47:0]}
  parameter int unsigned EntryWidthDefault = 32;  // an entry's state

  // Dependence Table operations.
  parameter logic [1:0] DtLookup = 2'd0;  // hit and the entry's state
  parameter logic [1:0] DtInsert = 2'd1;  // create (or overwrite a hit); full if no free way
  parameter logic [1:0] DtUpdate = 2'd2;  // write a hit's state
  parameter logic [1:0] DtDelete = 2'd3;  // free a hit's way
  // The Dependence Table's direct writes (no lookup of their own).
  parameter logic [1:0] WrNew = 2'd0;  // a new key into the set's lowest free way
  parameter logic [1:0] WrWay = 2'd1;  // a given way of the key's set
  parameter logic [1:0] WrFree = 2'd2;  // free a given way

  // Access classes (the functional model's nexus_access): in and inoutset
  // are concurrent, out holds an address alone.
  parameter logic [1:0] AccIn = 2'd1;
  parameter logic [1:0] AccOut = 2'd2;
  parameter logic [1:0] AccInoutset = 2'd3;

  // The set hash of a key {tag[15:0], address[47:0]}: x = (address >> 3) xor
  // tag, its four 16-bit fields xored (the functional model's set_of; a
  // Dependence Table takes the low log2(sets) bits).
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [15:0] set_hash(logic [63:0] key);
    logic [63:0] x;
    x = {19'b0, key[47:3]} ^ {48'b0, key[63:48]};
    set_hash = x[15:0] ^ x[31:16] ^ x[47:32] ^ x[63:48];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

endpackage
/* verilator lint_on UNUSEDPARAM */

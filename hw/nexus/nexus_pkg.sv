// The Nexus++ Task Maestro's configuration (papers/nexus-vss-hardware-task-
// manager.txt, section III, Table I): parameter defaults.
// Not every block uses every value.
/* verilator lint_off UNUSEDPARAM */
package nexus_pkg;

  parameter int unsigned DtSetsDefault = 256;  // Dependence Table sets
  parameter int unsigned DtWaysDefault = 8;  // ways per set
  parameter int unsigned KeyWidthDefault = 64;  // (domain tag, address) key
  parameter int unsigned EntryWidthDefault = 32;  // an entry's state

  // Dependence Table operations.
  parameter logic [1:0] DtLookup = 2'd0;  // hit and the entry's state
  parameter logic [1:0] DtInsert = 2'd1;  // create (or overwrite a hit); full if no free way
  parameter logic [1:0] DtUpdate = 2'd2;  // write a hit's state
  parameter logic [1:0] DtDelete = 2'd3;  // free a hit's way

endpackage
/* verilator lint_on UNUSEDPARAM */

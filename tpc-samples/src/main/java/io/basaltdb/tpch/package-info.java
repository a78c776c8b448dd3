/**
 * TPC-H: the schema, loading from the tpch generator library, the 22 queries, and the
 * comparison with H2.
 */
package io.basaltdb.tpch;

/** Cell order and the key encoding shared by the WAL and the block files. */
package io.basaltdb.engine.cell;

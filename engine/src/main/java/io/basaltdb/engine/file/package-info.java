/**
 * The sorted block file (format in {@code engine/doc/file-format.md}): data blocks with
 * shared-prefix keys and restart points, per-block LZ4, a multi-level block index, a bloom
 * filter, an info block and a fixed trailer. Knows nothing of regions or stores.
 */
package io.basaltdb.engine.file;

/**
 * Compaction policy: which files of a store to merge. The merge itself (the mechanism) is
 * {@code Store.compact}, which applies {@code CellResolver}'s rules.
 */
package io.basaltdb.engine.compaction;

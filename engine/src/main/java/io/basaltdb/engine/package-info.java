/**
 * Basalt's embedded wide-column store, its public API: open a {@link io.basaltdb.engine.Database}
 * (a directory, or a temporary one), change its schema with {@link io.basaltdb.storage.Admin}
 * (namespaces, tables of column families, regions), and read and write rows through
 * {@link io.basaltdb.storage.Table} with {@code Put}, {@code Get}, {@code Delete}, {@code Scan},
 * {@code Increment}, {@code Append}, {@code CheckAndMutate} and {@code RowMutations}, shaped
 * after HBase's client API. Errors are unchecked {@link io.basaltdb.storage.BasaltException}s.
 * Design: {@code engine/doc/engine.md}; formats: {@code engine/doc/*-format.md}.
 */
package io.basaltdb.engine;

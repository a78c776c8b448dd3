/** The memstore: a concurrent sorted in-memory buffer of one store's recent writes. */
package io.basaltdb.engine.memstore;

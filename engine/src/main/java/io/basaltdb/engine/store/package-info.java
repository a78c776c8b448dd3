/**
 * A store: one column family of one region — its memstores, its block files and manifest,
 * and the mechanics of flushing and compacting them. Regions coordinate stores.
 */
package io.basaltdb.engine.store;

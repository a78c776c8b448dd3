/** The catalog: namespaces, tables, families and regions, persisted in the CATALOG file. */
package io.basaltdb.engine.catalog;

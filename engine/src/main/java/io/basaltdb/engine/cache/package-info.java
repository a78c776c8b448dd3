/** The block cache shared by all files of a database. */
package io.basaltdb.engine.cache;

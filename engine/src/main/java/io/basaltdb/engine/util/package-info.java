/** Byte readers and writers, checksums: helpers shared by every format. */
package io.basaltdb.engine.util;

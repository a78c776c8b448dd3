/** SQL types and their byte forms: the order-preserving row-key codec. */
package io.basaltdb.sql.type;

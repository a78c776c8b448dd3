/**
 * The parser generated from Calcite's grammar with Basalt's DDL (JavaCC, at build time), and
 * {@code LimitedParser}, which bounds what a statement may nest.
 */
package io.basaltdb.sql.parser.impl;

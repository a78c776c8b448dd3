/**
 * CSV files in and out through the JDBC driver: {@code bin/basalt load} and {@code bin/basalt
 * export} ({@link io.basaltdb.jdbc.csv.CsvTool}), parsing and printing by Apache Commons CSV,
 * values mapped to columns by their SQL types ({@code jdbc-driver/doc/csv.md}).
 */
package io.basaltdb.jdbc.csv;

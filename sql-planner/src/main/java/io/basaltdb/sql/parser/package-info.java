/**
 * Basalt's SQL dialect: Calcite's parser extended (FMPP + JavaCC over Calcite's grammar
 * templates, grammar in {@code src/main/codegen}) with Phoenix-style DDL, and its parse-tree
 * nodes. The generated parser is {@code io.basaltdb.sql.parser.impl.BasaltSqlParserImpl}.
 */
package io.basaltdb.sql.parser;

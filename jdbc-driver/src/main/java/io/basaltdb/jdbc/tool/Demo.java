package io.basaltdb.jdbc.tool;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Basalt's main job: a tour of SQL over the wide-column store on an embedded database
 * (default {@code ./basalt-data}). It loads a small web-crawl table in the spirit of
 * Bigtable's webtable (rows keyed by reversed host and path, a {@code content} family keeping
 * three versions, a {@code stats} family of counters), then shows key-range scans with their
 * plans, a pushed-down aggregate, atomic counters, versions and reads as of a time, and a
 * sequence. Run it twice: the second run reopens the same data and adds versions.
 */
public final class Demo {
  private Demo() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.println("usage: basalt demo [dir]   (default ./basalt-data)");
      System.out.println("  loads a small web-crawl table and tours key ranges with their plans,");
      System.out.println("  point lookups, atomic counters, pushed aggregates, versions, AS OF.");
      return;
    }
    if (args.length > 1) {
      System.err.println("usage: basalt demo [dir]");
      System.exit(2);
    }
    Path dir = Path.of(args.length > 0 ? args[0] : "basalt-data");
    Class.forName("io.basaltdb.jdbc.BasaltDriver");
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + dir.toAbsolutePath())) {
      System.out.println("Basalt demo on " + dir.toAbsolutePath());
      run(c, "CREATE SCHEMA IF NOT EXISTS web");
      run(c, "CREATE TABLE IF NOT EXISTS web.pages ("
          + "host VARCHAR NOT NULL, path VARCHAR NOT NULL, "
          + "content.title VARCHAR, content.lang VARCHAR, stats.visits BIGINT, stats.links INTEGER,"
          + " CONSTRAINT pk PRIMARY KEY (host, path)) content.VERSIONS=3, COMPRESSION='LZ4' "
          + "SPLIT ON ('com.m', 'org')");
      run(c, "CREATE SEQUENCE IF NOT EXISTS web.crawl_ids");
      String[][] pages = {
          {"com.example.www", "/", "Example Domain", "en"},
          {"com.example.www", "/about", "About us", "en"},
          {"com.example.www", "/blog/lsm", "Log-structured merge trees", "en"},
          {"com.example.shop", "/", "Boutique", "fr"},
          {"com.news.www", "/", "Today's news", "en"},
          {"org.apache.hbase", "/", "Apache HBase", "en"},
          {"org.apache.calcite", "/", "Apache Calcite", "en"}};
      long crawl = single(c, "SELECT NEXT VALUE FOR web.crawl_ids");
      for (String[] p : pages) {
        update(c, "UPSERT INTO web.pages (host, path, title, lang, links) VALUES ('" + p[0]
            + "', '" + p[1] + "', '" + p[2].replace("'", "''") + " (crawl " + crawl + ")', '"
            + p[3] + "', " + p[0].length() + ")");
      }
      System.out.println("crawl " + crawl + ": upserted " + pages.length + " pages");

      section("A key range: every page of example.com, a scan of one region's slice");
      String range = "SELECT host, path, title FROM web.pages WHERE host LIKE 'com.example.%' "
          + "ORDER BY host, path";
      show(c, "EXPLAIN PLAN FOR " + range);
      show(c, range);

      section("EXPLAIN ANALYZE runs it: rows per operator, and what the scan read (regions, "
          + "cells in memstores and files, blocks from the cache or the disk)");
      show(c, "EXPLAIN ANALYZE " + range);

      section("A point lookup by the whole key is a get");
      show(c, "EXPLAIN PLAN FOR SELECT title FROM web.pages "
          + "WHERE host = 'org.apache.hbase' AND path = '/'");

      section("Counters: UPDATE ... SET visits = visits + n is an atomic increment");
      update(c, "UPDATE web.pages SET visits = 0 WHERE visits IS NULL");
      show(c, "EXPLAIN PLAN FOR UPDATE web.pages SET visits = visits + 1 "
          + "WHERE host = 'com.example.www' AND path = '/'");
      for (int i = 0; i < 3; i++) {
        update(c, "UPDATE web.pages SET visits = visits + 1 "
            + "WHERE host = 'com.example.www' AND path = '/'");
      }
      show(c, "SELECT host, path, visits FROM web.pages WHERE host = 'com.example.www'");

      section("An aggregate computed inside the region scans");
      show(c, "EXPLAIN PLAN FOR SELECT COUNT(*), SUM(visits), MAX(links) FROM web.pages");
      show(c, "SELECT COUNT(*) AS pages, SUM(visits) AS visits, MAX(links) AS links "
          + "FROM web.pages");

      section("Versions: the content family keeps three; every stored title of one page");
      show(c, "SELECT host, path, version_ts, val FROM web.\"PAGES$HISTORY\" "
          + "WHERE host = 'com.example.www' AND path = '/' AND column_name = 'TITLE' "
          + "ORDER BY version_ts DESC");
      show(c, "SELECT title FROM web.pages FOR SYSTEM_TIME AS OF TIMESTAMP '2000-01-01 00:00:00'"
          + " WHERE host = 'com.example.www'");
      System.out.println("(nothing existed in 2000: reads as of a time see only older versions)");
    }
  }

  private static void section(String title) {
    System.out.println();
    System.out.println("== " + title);
  }

  private static void run(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static int update(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      return st.executeUpdate(sql);
    }
  }

  private static long single(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Prints a statement and its rows as a small table. */
  private static void show(Connection c, String sql) throws SQLException {
    System.out.println("> " + sql);
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      int n = md.getColumnCount();
      List<String> header = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        header.add(md.getColumnLabel(i));
      }
      if (!(n == 1 && header.get(0).equals("PLAN"))) {
        System.out.println("  " + String.join(" | ", header));
      }
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(String.valueOf(rs.getString(i)));
        }
        System.out.println("  " + String.join(" | ", row).replace("\n", "\n  "));
      }
    }
  }
}

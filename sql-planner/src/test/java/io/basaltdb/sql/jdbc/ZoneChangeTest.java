package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/**
 * Dates and timestamps read after the JVM's default zone changed at run time (an application's
 * {@code TimeZone.setDefault} after a first date was read): every way of reading them gives
 * the value stored, as in a JVM started in that zone ({@link ZoneSafeDates}; before, a DATE
 * came back a day early nine hours east of the old zone). The zone is restored afterwards.
 */
class ZoneChangeTest {
  private static final String[] DATES = {"1969-07-20", "2024-02-29", "2000-01-01"};
  private static final String[] TIMES = {"1960-01-01 00:00:01.125", "2024-03-31 02:30:00",
      "2024-10-27 23:59:59.999"};

  @Test
  void datesReadAfterTheDefaultZoneChangedAreThoseStored() throws Exception {
    TimeZone before = TimeZone.getDefault();
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      try (Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE z (id INT PRIMARY KEY, d DATE, ts TIMESTAMP)");
        write(c, 0);
        assertEquals(expected(), read(c)); // the libraries take the zone of this moment
      }
      // east, then west of the zone the libraries saw first
      for (String zone : new String[] {"Asia/Tokyo", "America/Los_Angeles"}) {
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        try (Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
          s.execute("DELETE FROM z");
          write(c, 10);
          assertEquals(expected(), read(c), "in " + zone);
        }
      }
    } finally {
      TimeZone.setDefault(before);
    }
  }

  /** Rows bound as java.time values and as java.sql ones. */
  private static void write(Connection c, int id) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO z VALUES (?, ?, ?)")) {
      for (int i = 0; i < DATES.length; i++) {
        p.setInt(1, id + i);
        if (i % 2 == 0) {
          p.setObject(2, LocalDate.parse(DATES[i]));
          p.setObject(3, LocalDateTime.parse(TIMES[i].replace(' ', 'T')));
        } else {
          p.setDate(2, java.sql.Date.valueOf(DATES[i]));
          p.setTimestamp(3, java.sql.Timestamp.valueOf(TIMES[i]));
        }
        assertEquals(1, p.executeUpdate());
      }
    }
  }

  private static List<String> expected() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < DATES.length; i++) {
      LocalDateTime t = LocalDateTime.parse(TIMES[i].replace(' ', 'T'));
      out.add(DATES[i] + " " + DATES[i] + " " + DATES[i] + " " + DATES[i] + " " + t + " " + t
          + " " + t + " " + t.toLocalDate());
    }
    out.sort(null);
    return out;
  }

  /** Each row's date and timestamp through every getter, in a plain and a sorted query. */
  private static List<String> read(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    List<String> sorted = new ArrayList<>();
    try (Statement s = c.createStatement()) {
      for (String q : new String[] {"SELECT d, ts FROM z", "SELECT d, ts FROM z ORDER BY ts DESC"}) {
        List<String> to = q.contains("ORDER") ? sorted : out;
        try (ResultSet r = s.executeQuery(q)) {
          while (r.next()) {
            to.add(r.getDate(1).toLocalDate() + " " + r.getObject(1, LocalDate.class) + " "
                + r.getObject(1) + " " + r.getString(1) + " "
                + r.getTimestamp(2).toLocalDateTime() + " "
                + r.getObject(2, LocalDateTime.class) + " "
                + ((java.sql.Timestamp) r.getObject(2)).toLocalDateTime() + " "
                + r.getDate(2).toLocalDate());
          }
        }
      }
    }
    out.sort(null);
    sorted.sort(null);
    assertEquals(out, sorted, "a sorted query reads as a plain one");
    return out;
  }
}

package io.basaltdb.jdbc.metrics;

import io.basaltdb.storage.Storage;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * An open database's metrics as one JMX MBean, {@code io.basaltdb:type=Database,name="<its
 * location>"}, registered while the database is open in this process (by the driver, for
 * every database it opens). Each {@link MetricCatalog} metric is a read-only attribute named as
 * Prometheus names it ({@code basalt_wal_sync_seconds_count}, {@code _sum} in seconds; a tagged
 * one with its tag value after, {@code basalt_statements_total_query}): counts as Long, gauges
 * as Double. Read live.
 */
public final class DatabaseMBean implements DynamicMBean {
  private final Storage db;

  private DatabaseMBean(Storage db) {
    this.db = db;
  }

  /** The MBean's name for {@code location}. */
  public static ObjectName name(String location) {
    try {
      return new ObjectName("io.basaltdb:type=Database,name=" + ObjectName.quote(location));
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /**
   * Registers {@code db}'s MBean on the platform MBean server; returns what unregisters it. A
   * JMX failure (no platform server, a name taken) leaves the database without one, no more.
   */
  public static Runnable register(Storage db, String location) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = name(location);
      server.registerMBean(new DatabaseMBean(db), name);
      return () -> {
        try {
          server.unregisterMBean(name);
        } catch (javax.management.JMException | RuntimeException ignored) {
          // already gone
        }
      };
    } catch (javax.management.JMException | RuntimeException | Error e) {
      return () -> { };
    }
  }

  /** One attribute: its name, Java type and description, and how to read it. */
  private record Attr(String name, String type, String help, Supplier<Object> read) {}

  /**
   * The attributes of the metrics now (counts as Long, gauges and seconds as Double), none
   * read yet: an attribute asked alone reads only its own metric.
   */
  private static List<Attr> attributes(Storage db) {
    List<Attr> out = new ArrayList<>();
    for (Metric m : MetricCatalog.of(db)) {
      String tag = m.tags().isEmpty() ? "" : "_" + m.tags().values().iterator().next();
      if (m.type() == Metric.Type.TIMER) {
        out.add(new Attr(m.exposedName() + "_count" + tag, "java.lang.Long",
            m.help() + " (count)", () -> (long) m.value().getAsDouble()));
        out.add(new Attr(m.exposedName() + "_sum" + tag, "java.lang.Double",
            m.help() + " (seconds)", () -> m.nanos().getAsLong() / 1e9));
      } else if (m.type() == Metric.Type.COUNTER) {
        out.add(new Attr(m.exposedName() + tag, "java.lang.Long", m.help(),
            () -> (long) m.value().getAsDouble()));
      } else {
        out.add(new Attr(m.exposedName() + tag, "java.lang.Double", m.help(),
            () -> m.value().getAsDouble()));
      }
    }
    return out;
  }

  /** The attributes now: name to value. */
  static Map<String, Object> values(Storage db) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Attr a : attributes(db)) {
      out.put(a.name(), a.read().get());
    }
    return out;
  }

  @Override
  public Object getAttribute(String attribute) throws AttributeNotFoundException {
    for (Attr a : attributes(db)) {
      if (a.name().equals(attribute)) {
        return a.read().get();
      }
    }
    throw new AttributeNotFoundException("no Basalt metric " + attribute);
  }

  @Override
  public AttributeList getAttributes(String[] attributes) {
    Map<String, Object> all = values(db);
    AttributeList out = new AttributeList();
    for (String a : attributes) {
      if (all.containsKey(a)) {
        out.add(new Attribute(a, all.get(a)));
      }
    }
    return out;
  }

  @Override
  public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
    throw new AttributeNotFoundException("Basalt's metrics are read-only: " + attribute.getName());
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public Object invoke(String actionName, Object[] params, String[] signature) {
    throw new UnsupportedOperationException("Basalt's MBean has no operations: " + actionName);
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    List<MBeanAttributeInfo> attrs = new ArrayList<>();
    for (Attr a : attributes(db)) {
      attrs.add(new MBeanAttributeInfo(a.name(), a.type(), a.help(), true, false, false));
    }
    return new MBeanInfo(DatabaseMBean.class.getName(), "Basalt database " + db.location(),
        attrs.toArray(new MBeanAttributeInfo[0]), null, null, null);
  }
}

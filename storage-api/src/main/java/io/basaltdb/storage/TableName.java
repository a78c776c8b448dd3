package io.basaltdb.storage;

import java.util.regex.Pattern;

/**
 * A table's name within its namespace: {@code ns:table} in the engine's API, {@code default}
 * when no namespace is given. Both parts must be safe as file names. Immutable. Its parts are
 * interned: names are few and long-lived, and the maps keyed by them (the engine's tables, a
 * transaction's writes per table) compare names made in different places on every statement,
 * which then compare as the same strings.
 */
public record TableName(String namespace, String name) implements Comparable<TableName> {
  public static final String DEFAULT_NAMESPACE = "default";
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

  public TableName {
    checkName("namespace", namespace);
    checkName("table", name);
    namespace = namespace.intern();
    name = name.intern();
  }

  /** Parses {@code ns:table} or {@code table} (the default namespace). */
  public static TableName of(String qualified) {
    if (qualified == null) {
      throw new InvalidArgumentException("table name must not be null");
    }
    int i = qualified.indexOf(':');
    return i < 0 ? new TableName(DEFAULT_NAMESPACE, qualified)
        : new TableName(qualified.substring(0, i), qualified.substring(i + 1));
  }

  public static void checkName(String what, String n) {
    if (n == null || !SAFE.matcher(n).matches()) {
      throw new InvalidArgumentException("invalid " + what + " name '" + n
          + "': use 1-128 letters, digits, '_', '-' or '.', not starting with '-' or '.'");
    }
  }

  @Override
  public int compareTo(TableName o) {
    int c = namespace.compareTo(o.namespace);
    return c != 0 ? c : name.compareTo(o.name);
  }

  @Override
  public String toString() {
    return namespace + ":" + name;
  }
}

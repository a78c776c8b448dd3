package io.basaltdb.storage;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A table's declaration: its name and its column families with their settings (in
 * declaration order). Validated on construction; immutable. Family names must be safe as
 * directory names.
 */
public record TableDescriptor(TableName name, Map<String, FamilyOptions> families) {
  public TableDescriptor {
    if (name == null) {
      throw new InvalidArgumentException("table name must not be null");
    }
    if (families == null || families.isEmpty()) {
      throw new InvalidArgumentException("table " + name + " needs at least one column family");
    }
    for (var e : families.entrySet()) {
      TableName.checkName("column family", e.getKey());
      if (e.getValue() == null) {
        throw new InvalidArgumentException("column family " + e.getKey() + " has no options");
      }
    }
    families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
  }

  public static TableDescriptor of(String table, String... families) {
    Map<String, FamilyOptions> f = new LinkedHashMap<>();
    for (String fam : families) {
      f.put(fam, FamilyOptions.DEFAULT);
    }
    return new TableDescriptor(TableName.of(table), f);
  }

  public TableDescriptor withFamily(String family, FamilyOptions options) {
    Map<String, FamilyOptions> f = new LinkedHashMap<>(families);
    f.put(family, options);
    return new TableDescriptor(name, f);
  }

  public TableDescriptor withoutFamily(String family) {
    Map<String, FamilyOptions> f = new LinkedHashMap<>(families);
    f.remove(family);
    return new TableDescriptor(name, f);
  }
}

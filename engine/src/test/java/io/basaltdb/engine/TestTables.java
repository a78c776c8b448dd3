package io.basaltdb.engine;

import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.region.Region;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Opens a database holding single-region tables, for tests that drive a region directly. */
public final class TestTables {
  private TestTables() {}

  /** Opens {@code dir}, creating each named table with {@code families} if it is missing. */
  public static Database open(Path dir, EngineOptions options, Map<String, FamilyOptions> families,
      String... tables) {
    Database db = Database.open(dir, options);
    for (String t : tables) {
      TableName name = TableName.of(t);
      if (!db.admin().tableExists(name)) {
        db.admin().createTable(new TableDescriptor(name, families));
      }
    }
    return db;
  }

  /** The only region of a single-region table. */
  public static Region region(Database db, String table) {
    List<Region> rs = db.regions(TableName.of(table));
    if (rs.size() != 1) {
      throw new IllegalStateException(table + " has " + rs.size() + " regions");
    }
    return rs.get(0);
  }
}

package io.basaltdb.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;

/**
 * Flyway 13 with Basalt's database plugin: migrate (three SQL migrations: tables with identity
 * ids and a foreign key, an index, rows, an added column), info, validate, repair, and a second
 * migrate with nothing to do; then the migrated data. Compared with H2.
 */
class FlywayTest {
  private static Flyway flyway(DataSource ds) {
    return Flyway.configure().dataSource(ds).locations("classpath:db/migration").load();
  }

  @Test
  void sameAsH2() throws Exception {
    assertEquals(List.of(), new Steps("Flyway")
        .step("migrate", ds -> flyway(ds).migrate().migrationsExecuted)
        .step("info", ds -> Arrays.stream(flyway(ds).info().all())
            .map(m -> m.getVersion() + " " + m.getDescription() + " " + m.getState())
            .toList())
        .step("validate", ds -> flyway(ds).validateWithResult().validationSuccessful)
        .step("repair", ds -> flyway(ds).repair().repairActions)
        .step("migrate again", ds -> flyway(ds).migrate().migrationsExecuted)
        .step("current version", ds -> {
          MigrationInfo current = flyway(ds).info().current();
          return current.getVersion().getVersion();
        })
        .step("the data", ds -> {
          try (var c = ds.getConnection(); var s = c.createStatement();
              var r = s.executeQuery("SELECT a.name, b.title, b.pages FROM book b JOIN author a"
                  + " ON a.id = b.author_id ORDER BY b.title")) {
            StringBuilder out = new StringBuilder();
            while (r.next()) {
              out.append(r.getString(1)).append('/').append(r.getString(2)).append('/')
                  .append(r.getObject(3)).append(' ');
            }
            return out.toString().trim();
          }
        })
        .differences("flyway"), "steps where Basalt and H2 differ");
  }
}

package io.basaltdb.flyway;

import java.sql.Connection;
import org.flywaydb.core.internal.database.h2.H2DatabaseType;

/**
 * Flyway's database type for Basalt: {@code jdbc:basalt:} URLs and connections whose product is
 * Basalt, a {@link BasaltDatabase}; scripts are split by H2's parser (Basalt's SQL is H2's
 * where scripts are concerned: semicolons, quotes, comments). A Flyway plugin (a Java service
 * of {@code org.flywaydb.core.extensibility.Plugin}).
 */
public class BasaltDatabaseType extends H2DatabaseType {
  @Override
  public String getName() {
    return "Basalt";
  }

  @Override
  public boolean handlesJDBCUrl(String url) {
    return url.startsWith("jdbc:basalt:");
  }

  @Override
  public String getDriverClass(String url, ClassLoader classLoader) {
    return "io.basaltdb.jdbc.BasaltDriver";
  }

  @Override
  public boolean handlesDatabaseProductNameAndVersion(String product, String version,
      Connection connection) {
    return product.startsWith("Basalt");
  }

  @Override
  public org.flywaydb.core.internal.database.base.Database createDatabase(
      org.flywaydb.core.api.configuration.Configuration configuration,
      org.flywaydb.core.internal.jdbc.JdbcConnectionFactory connections,
      org.flywaydb.core.internal.jdbc.StatementInterceptor interceptor) {
    return new BasaltDatabase(configuration, connections, interceptor);
  }

  /** Before H2's own type, which would not know the URL or the product anyway. */
  @Override
  public int getPriority() {
    return 1;
  }
}

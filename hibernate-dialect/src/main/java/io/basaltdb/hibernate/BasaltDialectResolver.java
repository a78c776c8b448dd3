package io.basaltdb.hibernate;

import org.hibernate.dialect.Dialect;
import org.hibernate.engine.jdbc.dialect.spi.DialectResolutionInfo;
import org.hibernate.engine.jdbc.dialect.spi.DialectResolver;

/**
 * Gives Hibernate a {@link BasaltDialect} for a connection whose database says it is Basalt, so
 * {@code jdbc:basalt:} needs no {@code hibernate.dialect} setting; registered as a Java service
 * (Hibernate loads every {@code DialectResolver} service before its own).
 */
public final class BasaltDialectResolver implements DialectResolver {
  @Override
  public Dialect resolveDialect(DialectResolutionInfo info) {
    return "Basalt".equals(info.getDatabaseName()) ? new BasaltDialect(info) : null;
  }
}

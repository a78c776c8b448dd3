package io.basaltdb.sql;

import io.basaltdb.storage.Storage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.util.BuiltInMethod;

/**
 * The root schema of one Basalt connection's Calcite connection, and the state the SQL layer
 * keeps per connection: the storage it runs on, and what each floor keeps for the connection
 * ({@link #extension}: the catalog version its schemas were read at, the namespaces they were
 * last brought up to, its parser settings), owned by the connection and gone with it. No
 * process-wide map is keyed by a connection. Every statement's snapshot of the root schema
 * holds this same object (Calcite snapshots a schema as itself), so a statement finds it in a
 * field read. Made by the JDBC layer when it opens the Calcite connection; a Calcite
 * connection opened otherwise (Basalt's schemas added to a plain {@code jdbc:calcite:}) has
 * none, and callers fall back to finding the storage through the schemas. Thread-safe.
 */
public final class ConnectionRoot extends AbstractSchema {
  private final Storage storage;
  private final Map<Class<?>, Object> extensions = new ConcurrentHashMap<>();

  public ConnectionRoot(Storage storage) {
    this.storage = storage;
  }

  public Storage storage() {
    return storage;
  }

  /** This connection's object of {@code type}, made by {@code create} on first use. */
  public <T> T extension(Class<T> type, Supplier<? extends T> create) {
    return type.cast(extensions.computeIfAbsent(type, k -> create.get()));
  }

  /** The connection root of any schema of a connection or of a statement's snapshot, or null. */
  public static ConnectionRoot of(CalciteSchema schema) {
    return schema != null && schema.root().schema instanceof ConnectionRoot r ? r : null;
  }

  public static ConnectionRoot of(SchemaPlus schema) {
    return schema == null ? null : of(CalciteSchema.from(schema));
  }

  /** As Calcite's own root schema: generated code reaches it through the data context. */
  @Override
  public Expression getExpression(SchemaPlus parentSchema, String name) {
    return Expressions.call(DataContext.ROOT, BuiltInMethod.DATA_CONTEXT_GET_ROOT_SCHEMA.method);
  }
}

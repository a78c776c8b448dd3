package io.basaltdb.sql;

import io.basaltdb.storage.Storage;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.SchemaPlus;

/**
 * A Calcite schema backed by a storage: how code below the schema layer (the runtime of
 * generated code, which is handed only a statement's root schema) finds the storage a statement
 * runs on, without naming the schema classes.
 */
public interface StorageSchema {
  Storage storage();

  /**
   * The storage behind a root schema: its connection's ({@link ConnectionRoot}), else the first
   * sub-schema's backed by one; or null.
   */
  static Storage of(CalciteSchema root) {
    ConnectionRoot connection = ConnectionRoot.of(root);
    if (connection != null) {
      return connection.storage();
    }
    for (CalciteSchema sub : root.getSubSchemaMap().values()) {
      if (sub.schema instanceof StorageSchema s) {
        return s.storage();
      }
    }
    return null;
  }

  /** The storage behind a statement's root schema, or null. */
  static Storage of(SchemaPlus root) {
    return of(CalciteSchema.from(root));
  }
}

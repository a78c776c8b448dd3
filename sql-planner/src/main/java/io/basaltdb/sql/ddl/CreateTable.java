package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.parser.SqlColumnDef;
import io.basaltdb.sql.parser.SqlCreateBasaltTable;
import io.basaltdb.sql.parser.SqlTableOption;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * {@code CREATE TABLE}: the declared columns (key columns first, in key order; families; the
 * hidden row key when there is no primary key; Phoenix's types and UNSIGNED checks), their
 * DEFAULTs and CHECKs checked, the table options applied to the families (versions, TTL,
 * compression, bloom filters, ...), salting, the packed storage scheme, split points, and the
 * UNIQUE constraints' indexes; then the storage table and its SQL catalog entry. Stateless.
 */
final class CreateTable {
  private CreateTable() {}

  /** Creates the storage table and its catalog entry (and UNIQUE constraints' indexes). */
  static void run(SqlCreateBasaltTable create, Storage db, TableName name) {
    List<SqlColumn> columns = columns(create);
    List<io.basaltdb.sql.parser.SqlCreateBasaltIndex> uniques = UniqueConstraints.indexes(db,
        create, columns);
    int salt = 0;
    boolean packed = false;
    Map<String, FamilyOptions> families = new LinkedHashMap<>();
    for (SqlColumn c : columns) {
      if (!c.isKey()) {
        families.putIfAbsent(c.family(), FamilyOptions.DEFAULT);
      }
    }
    if (families.isEmpty()) {
      families.put(BasaltDdlExecutor.DEFAULT_FAMILY, FamilyOptions.DEFAULT);
    }
    for (SqlTableOption o : create.options) {
      if (o.option().equals("SALT_BUCKETS")) {
        salt = Integer.parseInt(o.valueText());
        continue;
      }
      if (o.option().equals("IMMUTABLE_STORAGE_SCHEME")) {
        if (o.family() != null) {
          throw new InvalidArgumentException("IMMUTABLE_STORAGE_SCHEME is the table's, not a "
              + "family's");
        }
        packed = oneOf(o, o.valueText(), "ONE_CELL_PER_COLUMN", BasaltDdlExecutor.PACKED_SCHEME)
            .equals(BasaltDdlExecutor.PACKED_SCHEME);
        continue;
      }
      if (o.family() != null && !families.containsKey(o.family())) {
        throw new InvalidArgumentException("option " + o.name + " names family " + o.family()
            + ", which no column uses");
      }
      for (Map.Entry<String, FamilyOptions> f : families.entrySet()) {
        if (o.family() == null || o.family().equals(f.getKey())) {
          f.setValue(apply(f.getValue(), o));
        }
      }
    }
    List<SqlTableDef.Check> checks = new ArrayList<>();
    for (SqlColumnDef c : create.columns) {
      SqlTableDef.Check u = DeclaredColumns.unsignedCheck(name.name(), c.column(), c.type);
      if (u != null) {
        checks.add(u);
      }
    }
    checks.addAll(io.basaltdb.sql.constraint.CheckConstraints.of(create, columns));
    DeclaredColumns.checkMaps(columns, packed, create.name.toString());
    String rowTimestamp = RowTimestampColumn.declared(create, columns, db);
    Map<String, String> defaults = defaults(create, columns, name, db);
    Map<TableName, SqlColumnDef.Identity> identities = identities(create, columns, name, db,
        defaults);
    SqlTableDef def = new SqlTableDef(name, columns, salt, packed).withDefaults(
        RowTimestampColumn.withNow(defaults, rowTimestamp, columns))
        .withChecks(checks).withRowTimestamp(rowTimestamp);
    def = def.withForeignKeys(ForeignKeyDdl.of(db, def, create.foreignKeys))
        .withGeneratedAlways(create.columns.stream().filter(c -> c.identity != null
            && c.identity.always()).map(SqlColumnDef::column).toList());
    RowKeyCodec codec = def.keyCodec();
    List<byte[]> splits = new ArrayList<>();
    for (SqlNode n : create.splitPoints) {
      SqlColumn first = def.keyColumns().get(0);
      Object v = literalValue((SqlLiteral) n, first.type());
      splits.add(codec.encodePrefix(first.type().toKey(v)));
    }
    if (salt > 0) {
      splits.clear();
      for (int b = 1; b < salt; b++) {
        splits.add(new byte[] {(byte) b});
      }
    }
    splits.sort(java.util.Arrays::compareUnsigned);
    SqlCatalog catalog = new SqlCatalog(db);
    for (Map.Entry<TableName, SqlColumnDef.Identity> i : identities.entrySet()) {
      catalog.putSequence(i.getKey(), i.getValue().start(), i.getValue().increment());
    }
    db.admin().createTable(new TableDescriptor(name, families), splits.toArray(new byte[0][]));
    catalog.put(def);
    UniqueConstraints.create(db, name, uniques);
  }

  /**
   * {@code DEFAULT NEXT VALUE FOR seq}: the sequence, which must exist, named with its schema
   * (the table's when the name has none), so every connection draws from the same one.
   */
  private static String sequenceDefault(SqlColumn col, SqlIdentifier seq, TableName table,
      Storage db) {
    TableName name = seq.names.size() == 1 ? new TableName(table.namespace(), seq.getSimple())
        : BasaltDdlExecutor.tableName(seq);
    if (new SqlCatalog(db).sequenceIncrement(name) == null) {
      throw new io.basaltdb.storage.TableNotFoundException("the DEFAULT of column " + col.name()
          + " names sequence " + seq + ", which does not exist");
    }
    switch (col.type()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> { }
      default -> throw new InvalidArgumentException("the DEFAULT of column " + col.name()
          + " (" + col.type() + ") draws from sequence " + seq + ", whose values are numbers");
    }
    return io.basaltdb.sql.catalog.IdentityColumns.defaultText(name,
        io.basaltdb.sql.schema.BasaltSchema.schemaName(name.namespace()));
  }

  /** The columns' DEFAULT expressions as catalog text, checked ({@link ColumnDefaults}). */
  private static Map<String, String> defaults(SqlCreateBasaltTable create,
      List<SqlColumn> columns, TableName name, Storage db) {
    Map<String, String> out = new LinkedHashMap<>();
    for (SqlColumnDef c : create.columns) {
      if (c.defaultValue != null) {
        SqlColumn col = columns.stream().filter(x -> x.name().equals(c.column())).findFirst()
            .orElseThrow();
        out.put(col.name(), c.defaultValue instanceof org.apache.calcite.sql.SqlCall call
            && call.getOperator().getKind() == org.apache.calcite.sql.SqlKind.NEXT_VALUE
            ? sequenceDefault(col, call.operand(0), name, db)
            : io.basaltdb.sql.constraint.ColumnDefaults.text(col, c.defaultValue));
      }
    }
    return out;
  }

  /**
   * The identity columns ({@code GENERATED ... AS IDENTITY}, {@code AUTO_INCREMENT}): each an
   * integer column whose DEFAULT draws from a sequence the table owns
   * ({@link io.basaltdb.sql.catalog.IdentityColumns}), put in {@code defaults}; returns the
   * sequences to make. {@code GENERATED ALWAYS} is taken as {@code BY DEFAULT}: a value the
   * INSERT gives is kept.
   */
  private static Map<TableName, SqlColumnDef.Identity> identities(SqlCreateBasaltTable create,
      List<SqlColumn> columns, TableName name, Storage db, Map<String, String> defaults) {
    Map<TableName, SqlColumnDef.Identity> out = new LinkedHashMap<>();
    SqlCatalog catalog = new SqlCatalog(db);
    for (SqlColumnDef c : create.columns) {
      if (c.identity == null) {
        continue;
      }
      SqlColumn col = columns.stream().filter(x -> x.name().equals(c.column())).findFirst()
          .orElseThrow();
      switch (col.type()) {
        case TINYINT, SMALLINT, INTEGER, BIGINT -> { }
        default -> throw new InvalidArgumentException("identity column " + col.name() + " is "
            + col.type() + "; an identity is an integer (TINYINT, SMALLINT, INTEGER, BIGINT)");
      }
      if (c.defaultValue != null) {
        throw new InvalidArgumentException("column " + col.name() + " is an identity and has a"
            + " DEFAULT: it can have one or the other");
      }
      if (c.identity.increment() == 0) {
        throw new InvalidArgumentException("identity column " + col.name()
            + ": INCREMENT BY must not be 0");
      }
      TableName seq = io.basaltdb.sql.catalog.IdentityColumns.ownedSequence(name, col.name());
      if (catalog.sequenceIncrement(seq) != null || db.admin().tableExists(seq)
          || catalog.getView(seq) != null) {
        throw new SqlStateException(SqlStates.DUPLICATE_OBJECT, "identity column "
            + col.name() + " needs sequence " + seq.name() + ", and an object of that name"
            + " exists");
      }
      out.put(seq, c.identity);
      defaults.put(col.name(), io.basaltdb.sql.catalog.IdentityColumns.defaultText(seq,
          io.basaltdb.sql.schema.BasaltSchema.schemaName(name.namespace())));
    }
    return out;
  }

  private static List<SqlColumn> columns(SqlCreateBasaltTable create) {
    List<String> pk = new ArrayList<>();
    for (SqlIdentifier id : create.primaryKey) {
      pk.add(id.getSimple());
    }
    List<SqlColumn> out = new ArrayList<>();
    int inlineKeys = 0;
    for (SqlColumnDef c : create.columns) {
      if (c.primaryKey) {
        inlineKeys++;
      }
    }
    if (inlineKeys > 1 || (inlineKeys == 1 && !pk.isEmpty())) {
      throw new InvalidArgumentException("a table has one primary key: declare it inline on one "
          + "column or as a CONSTRAINT, not both");
    }
    boolean hidden = inlineKeys == 0 && pk.isEmpty();
    for (SqlColumnDef c : create.columns) {
      int keyPos = c.primaryKey ? 0 : pk.indexOf(c.column());
      boolean desc = c.primaryKey ? c.descending
          : keyPos >= 0 && create.primaryKeyDescending.get(keyPos);
      if (keyPos >= 0 && c.family() != null) {
        throw new InvalidArgumentException("primary key column " + c.name
            + " cannot belong to a family");
      }
      out.add(DeclaredColumns.column(c.column(), c.type, !c.notNull && keyPos < 0, keyPos, desc,
          keyPos >= 0 ? null
              : (c.family() == null ? BasaltDdlExecutor.DEFAULT_FAMILY : c.family())));
    }
    for (String k : pk) {
      if (out.stream().noneMatch(c -> c.name().equals(k))) {
        throw new InvalidArgumentException("primary key column " + k + " is not a column");
      }
    }
    if (out.stream().anyMatch(c -> c.name().equals(SqlTableDef.HIDDEN_KEY))) {
      throw new InvalidArgumentException(SqlTableDef.HIDDEN_KEY + " is reserved for the hidden "
          + "row key of tables without a primary key");
    }
    if (hidden) { // no primary key: a random hidden row key, last
      out.add(new SqlColumn(SqlTableDef.HIDDEN_KEY, ColumnType.BIGINT, -1, -1, false, 0, false,
          null));
    }
    return out;
  }

  private static FamilyOptions apply(FamilyOptions f, SqlTableOption o) {
    String v = o.valueText();
    try {
      return switch (o.option()) {
        case "VERSIONS" -> f.withVersions(Integer.parseInt(v), Math.min(f.minVersions(),
            Integer.parseInt(v)));
        case "MIN_VERSIONS" -> f.withVersions(f.maxVersions(), Integer.parseInt(v));
        case "TTL" -> f.withTtlSeconds(Long.parseLong(v));
        case "COMPRESSION" -> f.withCompression(Compression.parse(v));
        case "BLOCKSIZE" -> f.withBlockSize(Integer.parseInt(v));
        case "BLOOMFILTER" -> f.withBloomType(BloomType.parse(v));
        case "DATA_BLOCK_ENCODING" -> f.withPrefixEncoding(oneOf(o, v, "NONE", "PREFIX")
            .equals("PREFIX"));
        case "IN_MEMORY" -> f.withInMemory(oneOf(o, v, "TRUE", "FALSE").equals("TRUE"));
        default -> throw new InvalidArgumentException("unknown table option " + o.option());
      };
    } catch (NumberFormatException e) {
      throw new InvalidArgumentException("option " + o.option() + " needs a number, got " + v);
    }
  }

  /** The option's value upper-cased, when it is one of {@code allowed}; else an error. */
  private static String oneOf(SqlTableOption o, String v, String... allowed) {
    String u = v.toUpperCase(Locale.ROOT);
    if (!List.of(allowed).contains(u)) {
      throw new InvalidArgumentException("option " + o.option() + " must be one of "
          + String.join(", ", allowed) + ", got '" + v + "'");
    }
    return u;
  }

  /** A literal as a value of a column type, in Calcite's internal form. */
  static Object literalValue(SqlLiteral l, ColumnType t) {
    return switch (t) {
      case BOOLEAN -> l.booleanValue();
      case TINYINT -> l.bigDecimalValue().byteValueExact();
      case SMALLINT -> l.bigDecimalValue().shortValueExact();
      case INTEGER, DATE, TIME -> l.bigDecimalValue().intValueExact();
      case BIGINT, TIMESTAMP, TIMESTAMP_TZ -> l.bigDecimalValue().longValueExact();
      case UUID -> java.util.UUID.fromString(l.toValue());
      case REAL -> l.bigDecimalValue().floatValue();
      case DOUBLE -> l.bigDecimalValue().doubleValue();
      case DECIMAL -> l.bigDecimalValue() == null ? new BigDecimal(l.toValue())
          : l.bigDecimalValue();
      case CHAR, VARCHAR -> l.toValue();
      case BINARY, VARBINARY -> new org.apache.calcite.avatica.util.ByteString(
          l.toValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      case ARRAY, MAP -> throw new InvalidArgumentException("an " + t + " cannot be a split "
          + "point");
    };
  }
}

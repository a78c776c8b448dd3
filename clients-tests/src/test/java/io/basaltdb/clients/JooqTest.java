package io.basaltdb.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.sum;
import static org.jooq.impl.DSL.table;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/**
 * jOOQ 3.19 with its DEFAULT dialect (no generated code, as a first project uses it): DDL it
 * renders (a primary and a foreign key), inserts and a batch, a join with grouping, ordering,
 * LIMIT and OFFSET as bound parameters, an update and a delete, a transaction, and
 * {@code meta()} reading the tables, keys and references back; compared with H2.
 */
class JooqTest {
  private static final Table<?> CUSTOMER = table(name("CUSTOMER"));
  private static final Table<?> ORDERS = table(name("ORDERS"));
  private static final Field<Integer> C_ID = field(name("CUSTOMER", "ID"), Integer.class);
  private static final Field<String> C_NAME = field(name("CUSTOMER", "NAME"), String.class);
  private static final Field<Integer> O_ID = field(name("ORDERS", "ID"), Integer.class);
  private static final Field<Integer> O_CUSTOMER = field(name("ORDERS", "CUSTOMER_ID"),
      Integer.class);
  private static final Field<BigDecimal> O_TOTAL = field(name("ORDERS", "TOTAL"),
      BigDecimal.class);

  private static DSLContext dsl(DataSource ds) {
    return DSL.using(ds, SQLDialect.DEFAULT);
  }

  @Test
  void sameAsH2() throws Exception {
    assertEquals(List.of(), new Steps("jOOQ")
        .step("create tables", ds -> {
          dsl(ds).createTable(CUSTOMER).column("ID", SQLDataType.INTEGER.notNull())
              .column("NAME", SQLDataType.VARCHAR(40).notNull())
              .constraints(DSL.constraint("CUSTOMER_PK").primaryKey("ID")).execute();
          dsl(ds).createTable(ORDERS).column("ID", SQLDataType.INTEGER.notNull())
              .column("CUSTOMER_ID", SQLDataType.INTEGER)
              .column("TOTAL", SQLDataType.DECIMAL(10, 2))
              .constraints(DSL.constraint("ORDERS_PK").primaryKey("ID"),
                  DSL.constraint("ORDERS_CUSTOMER_FK").foreignKey("CUSTOMER_ID")
                      .references("CUSTOMER", "ID"))
              .execute();
          return "ok";
        })
        .step("insert rows", ds -> dsl(ds).insertInto(CUSTOMER, C_ID, C_NAME)
            .values(1, "acme").values(2, "bolt").values(3, "crux").execute())
        .step("batch of orders", ds -> {
          var q = dsl(ds).insertInto(ORDERS, O_ID, O_CUSTOMER, O_TOTAL)
              .values((Integer) null, null, null);
          var batch = dsl(ds).batch(q);
          for (int i = 1; i <= 30; i++) {
            batch.bind(i, 1 + i % 3, new BigDecimal(i + ".50"));
          }
          return java.util.Arrays.stream(batch.execute()).sum();
        })
        .step("an order without its customer", ds -> {
          try {
            return dsl(ds).insertInto(ORDERS, O_ID, O_CUSTOMER, O_TOTAL)
                .values(99, 42, BigDecimal.ONE).execute();
          } catch (org.jooq.exception.DataAccessException e) {
            return Steps.failure(e);
          }
        })
        .step("join, group, order, limit, offset", ds -> dsl(ds)
            .select(C_NAME, count(), sum(O_TOTAL)).from(CUSTOMER)
            .join(ORDERS).on(O_CUSTOMER.eq(C_ID)).where(O_TOTAL.gt(new BigDecimal("3")))
            .groupBy(C_NAME).orderBy(C_NAME.desc()).limit(2).offset(1)
            .fetch().formatCSV(false))
        .step("update and delete", ds -> dsl(ds).update(ORDERS)
            .set(O_TOTAL, O_TOTAL.plus(1)).where(O_CUSTOMER.eq(2)).execute() + " "
            + dsl(ds).deleteFrom(ORDERS).where(O_ID.gt(25)).execute())
        .step("transaction rolled back", ds -> {
          try {
            dsl(ds).transaction(cfg -> {
              DSL.using(cfg).deleteFrom(ORDERS).execute();
              DSL.using(cfg).insertInto(CUSTOMER, C_ID, C_NAME).values(1, "dup").execute();
            });
          } catch (org.jooq.exception.DataAccessException expected) {
            // the duplicate key rolls the whole transaction back
          }
          return dsl(ds).fetchCount(ORDERS);
        })
        .step("meta: tables, keys, references", ds -> dsl(ds).meta().getTables().stream()
            .filter(t -> t.getName().equals("CUSTOMER") || t.getName().equals("ORDERS"))
            .map(t -> t.getName() + " pk " + (t.getPrimaryKey() == null ? null
                : t.getPrimaryKey().getFields().stream().map(Field::getName)
                    .collect(Collectors.toList()))
                + " refs " + t.getReferences().stream().map(r -> r.getTable().getName() + "->"
                    + r.getKey().getTable().getName() + r.getFields().stream()
                        .map(Field::getName).collect(Collectors.toList()))
                    .collect(Collectors.toList()))
            .sorted().collect(Collectors.toList()))
        .differences("jooq"), "steps where Basalt and H2 differ");
  }
}

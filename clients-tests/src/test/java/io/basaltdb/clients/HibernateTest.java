package io.basaltdb.clients;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Hibernate ORM 7 with no dialect set (Basalt's is found from the connection): the schema made
 * by {@code hbm2ddl} (sequence and identity ids, UUID and Instant fields, a version column, a
 * foreign key), persist and flush, find, changes under {@code @Version}, JPQL with LIKE and
 * paging, a criteria count, bulk update and delete, a parent refused while it has children,
 * then {@code validate} and {@code update} over the schema made; compared with H2.
 */
class HibernateTest {
  /** A customer: a sequence id, a UUID, an Instant, a version. */
  @Entity(name = "Customer")
  public static class Customer {
    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "customer_seq")
    @SequenceGenerator(name = "customer_seq", allocationSize = 1)
    Long id;
    @Column(nullable = false, unique = true)
    String email;
    String name;
    UUID token;
    Instant joined;
    @Version
    int version;
  }

  /** An order: an identity id, its customer (a foreign key). */
  @Entity(name = "Purchase")
  public static class Purchase {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    Long id;
    @ManyToOne(optional = false)
    Customer customer;
    long cents;
  }

  private static SessionFactory factory(DataSource ds, String ddl) {
    Configuration cfg = new Configuration().addAnnotatedClass(Customer.class)
        .addAnnotatedClass(Purchase.class);
    cfg.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, ds);
    cfg.setProperty(AvailableSettings.HBM2DDL_AUTO, ddl);
    return cfg.buildSessionFactory();
  }

  /** No dialect set: Basalt's is found from the connection's metadata. */
  @Test
  void basaltDialectIsFoundFromTheConnection() {
    try (var ds = Steps.pool("jdbc:basalt:mem:dialect"); SessionFactory f = factory(ds, "none")) {
      org.junit.jupiter.api.Assertions.assertInstanceOf(io.basaltdb.hibernate.BasaltDialect.class,
          ((org.hibernate.engine.spi.SessionFactoryImplementor) f).getJdbcServices()
              .getDialect());
    }
  }

  @Test
  void sameAsH2() throws Exception {
    new Steps("Hibernate")
        .step("create the schema, persist, flush", ds -> {
          try (SessionFactory f = factory(ds, "create")) {
            return f.fromTransaction(s -> {
              for (int i = 1; i <= 5; i++) {
                Customer c = new Customer();
                c.email = "c" + i + "@x.org";
                c.name = "customer " + i;
                c.token = new UUID(i, i);
                c.joined = Instant.parse("2024-01-0" + i + "T10:00:00Z");
                s.persist(c);
                for (int k = 0; k < i; k++) {
                  Purchase p = new Purchase();
                  p.customer = c;
                  p.cents = 100L * i + k;
                  s.persist(p);
                }
              }
              s.flush();
              return s.createQuery("select count(p) from Purchase p", Long.class)
                  .getSingleResult();
            });
          }
        })
        .step("find, change under @Version, JPQL", ds -> {
          try (SessionFactory f = factory(ds, "none")) {
            f.inTransaction(s -> {
              Customer c = s.find(Customer.class, 2L);
              c.name = "renamed";
            });
            return f.fromTransaction(s -> {
              Customer c = s.find(Customer.class, 2L);
              List<String> names = s.createQuery("select c.name from Customer c where c.email"
                  + " like :p order by c.id", String.class).setParameter("p", "c%")
                  .setFirstResult(1).setMaxResults(3).getResultList();
              return c.name + " v" + c.version + " " + c.token + " " + c.joined + " " + names;
            });
          }
        })
        .step("criteria count and a join", ds -> {
          try (SessionFactory f = factory(ds, "none")) {
            return f.fromTransaction(s -> {
              var cb = s.getCriteriaBuilder();
              var q = cb.createQuery(Long.class);
              var p = q.from(Purchase.class);
              q.select(cb.count(p)).where(cb.greaterThan(p.get("cents"), 300L));
              return s.createQuery(q).getSingleResult() + " " + s.createQuery(
                  "select c.email, sum(p.cents) from Purchase p join p.customer c group by"
                  + " c.email order by c.email", Object[].class).getResultList().stream()
                  .map(r -> r[0] + "=" + r[1]).toList();
            });
          }
        })
        .step("bulk update and delete", ds -> {
          try (SessionFactory f = factory(ds, "none")) {
            return f.fromTransaction(s -> s.createMutationQuery("update Purchase p set p.cents"
                + " = p.cents + 1 where p.cents < 300").executeUpdate() + " " + s
                .createMutationQuery("delete from Purchase p where p.cents > 500")
                .executeUpdate());
          }
        })
        .step("a parent with children is refused", ds -> {
          try (SessionFactory f = factory(ds, "none")) {
            f.inTransaction(s -> s.createMutationQuery("delete from Customer c where c.id = 3")
                .executeUpdate());
            return "deleted";
          } catch (RuntimeException e) {
            return Steps.failure(e);
          }
        })
        .step("stale version refused", ds -> {
          try (SessionFactory f = factory(ds, "none")) {
            Customer stale = f.fromTransaction(s -> s.find(Customer.class, 1L));
            f.inTransaction(s -> s.find(Customer.class, 1L).name = "first");
            stale.name = "second";
            f.inTransaction(s -> s.merge(stale));
            return "merged";
          } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
          }
        })
        .step("validate the schema", ds -> {
          try (SessionFactory f = factory(ds, "validate")) {
            return "valid: " + f.isOpen();
          }
        })
        .step("update the schema (nothing to do)", ds -> {
          try (SessionFactory f = factory(ds, "update")) {
            return f.fromTransaction(s -> s.createQuery("select count(c) from Customer c",
                Long.class).getSingleResult());
          }
        })
        .compare("hibernate");
  }
}

package io.basaltdb.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.ibatis.annotations.Delete;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.Test;

/**
 * MyBatis 3 with annotated mappers: DDL and DML through mappers (MyBatis prepares every
 * statement), generated keys into the parameter object, maps and dynamic IN lists, a session
 * committed and one rolled back; compared with H2.
 */
class MyBatisTest {
  /** A row, filled by MyBatis (its generated key too). */
  public static class Note {
    public Long id;
    public String title;
    public int stars;
  }

  /** The mapper. */
  public interface Notes {
    @Update("CREATE TABLE note (id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(30)"
        + " NOT NULL, stars INT)")
    void create();

    @Insert("INSERT INTO note (title, stars) VALUES (#{title}, #{stars})")
    @Options(useGeneratedKeys = true, keyProperty = "id", keyColumn = "ID")
    int insert(Note n);

    @Select("SELECT id, title, stars FROM note WHERE stars >= #{min} ORDER BY id")
    List<Note> atLeast(@Param("min") int min);

    @Select({"<script>SELECT title FROM note WHERE id IN <foreach item='i' collection='ids'"
        + " open='(' separator=',' close=')'>#{i}</foreach> ORDER BY title</script>"})
    List<String> titles(@Param("ids") List<Long> ids);

    @Select("SELECT stars, COUNT(*) AS n FROM note GROUP BY stars ORDER BY stars")
    List<Map<String, Object>> histogram();

    @Update("UPDATE note SET stars = stars + 1 WHERE title LIKE #{p}")
    int bump(@Param("p") String pattern);

    @Delete("DELETE FROM note WHERE stars < #{max}")
    int deleteBelow(@Param("max") int max);
  }

  private static SqlSessionFactory factory(DataSource ds) {
    Configuration cfg = new Configuration(new Environment("test", new JdbcTransactionFactory(),
        ds));
    cfg.addMapper(Notes.class);
    return new SqlSessionFactoryBuilder().build(cfg);
  }

  @Test
  void sameAsH2() throws Exception {
    assertEquals(List.of(), new Steps("MyBatis")
        .step("DDL through a mapper", ds -> {
          try (SqlSession s = factory(ds).openSession(true)) {
            s.getMapper(Notes.class).create();
            return "ok";
          }
        })
        .step("inserts with generated keys", ds -> {
          try (SqlSession s = factory(ds).openSession()) {
            StringBuilder ids = new StringBuilder();
            for (int i = 0; i < 6; i++) {
              Note n = new Note();
              n.title = "note " + i;
              n.stars = i % 4;
              s.getMapper(Notes.class).insert(n);
              ids.append(n.id).append(' ');
            }
            s.commit();
            return ids.toString().trim();
          }
        })
        .step("select into objects", ds -> {
          try (SqlSession s = factory(ds).openSession()) {
            return s.getMapper(Notes.class).atLeast(2).stream()
                .map(n -> n.id + ":" + n.title + ":" + n.stars).toList();
          }
        })
        .step("dynamic IN list", ds -> {
          try (SqlSession s = factory(ds).openSession()) {
            return s.getMapper(Notes.class).titles(List.of(1L, 3L, 5L, 99L));
          }
        })
        .step("maps", ds -> {
          try (SqlSession s = factory(ds).openSession()) {
            return s.getMapper(Notes.class).histogram().stream().map(m -> m.get("STARS") + "x"
                + ((Number) m.get("N")).longValue()).toList();
          }
        })
        .step("session rolled back", ds -> {
          try (SqlSession s = factory(ds).openSession()) {
            int n = s.getMapper(Notes.class).deleteBelow(10);
            s.rollback();
            return n + " then " + s.getMapper(Notes.class).atLeast(0).size();
          }
        })
        .step("session committed", ds -> {
          try (SqlSession s = factory(ds).openSession()) {
            int bumped = s.getMapper(Notes.class).bump("note %");
            int deleted = s.getMapper(Notes.class).deleteBelow(2);
            s.commit();
            return bumped + " " + deleted + " " + s.getMapper(Notes.class).atLeast(0).size();
          }
        })
        .differences("mybatis"), "steps where Basalt and H2 differ");
  }
}

package io.basaltdb.jdbc.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's users hold salted slow hashes (no password in the file; plain ones are found
 * and warned about), and with a keystore the server speaks HTTPS only (plain HTTP refused).
 */
class ServerSecurityTest {
  @TempDir Path dir;

  private static Properties login(String user, String password) {
    Properties p = new Properties();
    p.setProperty("avatica_user", user);
    p.setProperty("avatica_password", password);
    return p;
  }

  @Test
  void hashesAreSaltedAndChecked() {
    String a = PasswordHash.hash("correct horse".toCharArray());
    String b = PasswordHash.hash("correct horse".toCharArray());
    assertTrue(a.startsWith("PBKDF2:210000:"), a);
    assertFalse(a.equals(b), "salted: two hashes of one password differ");
    assertFalse(a.contains("correct"));
    assertTrue(PasswordHash.matches(a, "correct horse".toCharArray()));
    assertFalse(PasswordHash.matches(a, "correct horsf".toCharArray()));
    assertTrue(new PasswordHash().getCredential(a).check("correct horse"));
    assertFalse(new PasswordHash().getCredential(a).check("guess"));
  }

  @Test
  void usersLogInWithHashedPasswords() throws Exception {
    Path users = dir.resolve("users.properties");
    PasswdTool.write(users, "ana", PasswordHash.hash("ana-secret".toCharArray()),
        UsersFile.ADMIN);
    assertFalse(Files.readString(users).contains("ana-secret"), "no password in the file");
    assertEquals(List.of(), UsersFile.read(users).plaintextUsers());
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", users, false))) {
      String url = server.clientUrl() + ";authentication=BASIC";
      try (Connection ana = DriverManager.getConnection(url, login("ana", "ana-secret"));
          Statement st = ana.createStatement()) {
        st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10))");
        st.executeUpdate("UPSERT INTO t VALUES (1, 'one')");
        try (ResultSet rs = st.executeQuery("SELECT v FROM t WHERE id = 1")) {
          assertTrue(rs.next());
          assertEquals("one", rs.getString(1));
        }
      }
      // BASIC sends the password with every request: only the first pays the slow hash
      try (Connection ana = DriverManager.getConnection(url, login("ana", "ana-secret"));
          java.sql.PreparedStatement ps = ana.prepareStatement("SELECT v FROM t WHERE id = ?")) {
        long before = PasswordHash.DERIVATIONS.get();
        for (int i = 0; i < 50; i++) {
          ps.setInt(1, 1);
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
          }
        }
        long slow = PasswordHash.DERIVATIONS.get() - before;
        assertTrue(slow <= 1, "50 requests made " + slow + " slow hash derivations");
      }
      assertThrows(Exception.class, () -> {
        try (Connection c = DriverManager.getConnection(url, login("ana", "ana-secreT"))) {
          c.createStatement().executeQuery("VALUES 1");
        }
      }, "a wrong password is refused");
    }
    Files.writeString(users, "old: plain-password,basalt\n", java.nio.file.StandardOpenOption.APPEND);
    assertEquals(List.of("old"), UsersFile.read(users).plaintextUsers());
  }

  @Test
  void withAKeystoreOnlyHttpsIsServed() throws Exception {
    Path keystore = dir.resolve("server.p12");
    Path passwordFile = dir.resolve("tls-password");
    Files.writeString(passwordFile, "changeit-123\n");
    Process keytool = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
        "-alias", "basalt", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
        "-keystore", keystore.toString(), "-storepass", "changeit-123", "-keypass",
        "changeit-123").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertEquals(0, keytool.waitFor());
    try (BasaltServer server = BasaltServer.start(new BasaltServer.Options(dir.resolve("db"), 0,
        "127.0.0.1", null, false, keystore, passwordFile))) {
      assertTrue(server.clientUrl().contains("https://"), server.clientUrl());
      String url = server.clientUrl() + ";truststore=" + keystore
          + ";truststore_password=changeit-123";
      try (Connection c = DriverManager.getConnection(url);
          ResultSet rs = c.createStatement().executeQuery("VALUES 42")) {
        assertTrue(rs.next());
        assertEquals(42, rs.getInt(1));
      }
      // a client speaking plain HTTP to the TLS port is answered with nothing but a close
      try (java.net.Socket plain = new java.net.Socket("127.0.0.1", server.port())) {
        plain.setSoTimeout(20_000);
        plain.getOutputStream().write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Length: 2\r\n\r\n{}").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        plain.getOutputStream().flush();
        byte[] answer = plain.getInputStream().readAllBytes(); // until the server closes
        String text = new String(answer, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(text.startsWith("HTTP/"), "plain HTTP got an HTTP answer: " + text);
      }
    }
  }
}

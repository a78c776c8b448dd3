package io.basaltdb.jdbc.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's users file: Jetty's {@code user: credential,role[,role...]} lines, read by Jetty
 * for HTTP BASIC and by Basalt for the roles. Credentials should be hashes made by
 * {@code bin/basalt passwd} ({@link PasswordHash}); a plain password still works but is
 * reported ({@link #plaintextUsers}), and the server warns at start. Roles: {@value #ADMIN}
 * (and the older {@value #LEGACY}) may do everything, {@value #READ} only query; a user with
 * none of them is refused by Jetty.
 */
public final class UsersFile {
  public static final String ADMIN = "basalt-admin";
  public static final String LEGACY = "basalt";
  public static final String READ = io.basaltdb.jdbc.server.ServerMeta.READ_ROLE;
  static final String[] ROLES = {ADMIN, LEGACY, READ};

  /** User name to credential (the roles are Jetty's to check). */
  private final Map<String, String> users = new LinkedHashMap<>();

  private UsersFile() {}

  /** Reads {@code file}; an {@link IllegalArgumentException} naming the line if malformed. */
  public static UsersFile read(Path file) throws IOException {
    UsersFile u = new UsersFile();
    int n = 0;
    for (String line : Files.readAllLines(file)) {
      n++;
      String t = line.trim();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      int colon = t.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(file + " line " + n + ": expected 'user: credential,"
            + "role', got '" + t.replaceAll(":.*", ": ...") + "'");
      }
      String credential = t.substring(colon + 1).trim().split(",")[0].trim();
      u.users.put(t.substring(0, colon).trim(), credential);
    }
    return u;
  }

  /**
   * Whether {@code password} is {@code user}'s (as the server's BASIC authentication checks
   * it: a {@link PasswordHash}, else Jetty's MD5, CRYPT or plain credential).
   */
  public boolean check(String user, String password) {
    String credential = users.get(user);
    if (credential == null || password == null) {
      return false;
    }
    return credential.startsWith(PasswordHash.PREFIX)
        ? PasswordHash.matches(credential, password.toCharArray())
        : org.eclipse.jetty.util.security.Credential.getCredential(credential).check(password);
  }

  /** Users whose credential is a plain password, not a hash. */
  public List<String> plaintextUsers() {
    List<String> out = new ArrayList<>();
    users.forEach((name, credential) -> {
      if (!credential.startsWith(PasswordHash.PREFIX)
          && !credential.startsWith("MD5:") && !credential.startsWith("CRYPT:")) {
        out.add(name);
      }
    });
    return out;
  }

}

package io.basaltdb.jdbc.server;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jetty.util.security.CredentialProvider;

/**
 * Salted slow password hashes for the server's users file:
 * {@code PBKDF2:<iterations>:<salt, base64>:<PBKDF2WithHmacSHA256, base64>} (16-byte salt,
 * 32-byte key, 210,000 iterations as OWASP advises for this function). Jetty reads a users
 * file's credentials through its {@link CredentialProvider}s, found by prefix: this class is
 * registered as one ({@code META-INF/services}), so the file can hold hashes instead of
 * passwords. Checks compare in constant time. HTTP BASIC sends the password with every
 * request, so a successful check is remembered for {@link #REMEMBER} as a SHA-256 of salt and
 * password (a request then costs microseconds, not 210,000 iterations); a failed one is never
 * remembered, so guessing stays slow.
 */
public final class PasswordHash implements CredentialProvider {
  public static final String PREFIX = "PBKDF2:";
  static final int ITERATIONS = 210_000;
  static final java.time.Duration REMEMBER = java.time.Duration.ofMinutes(10);

  /** Stored hash + fast digest of salt and a password that matched it. */
  private static final com.google.common.cache.Cache<String, Boolean> VERIFIED =
      com.google.common.cache.CacheBuilder.newBuilder().maximumSize(1024)
          .expireAfterWrite(REMEMBER).build();

  /** A new hash of {@code password} with a fresh random salt. */
  public static String hash(char[] password) {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return PREFIX + ITERATIONS + ":" + Base64.getEncoder().encodeToString(salt) + ":"
        + Base64.getEncoder().encodeToString(derive(password, salt, ITERATIONS));
  }

  /** True when {@code password} matches {@code stored} (a {@link #PREFIX} hash). */
  public static boolean matches(String stored, char[] password) {
    String[] f = stored.substring(PREFIX.length()).split(":");
    if (f.length != 3) {
      return false;
    }
    byte[] salt = Base64.getDecoder().decode(f[1]);
    byte[] want = Base64.getDecoder().decode(f[2]);
    String key = stored + "/" + fastDigest(salt, password);
    if (VERIFIED.getIfPresent(key) != null) {
      return true;
    }
    boolean ok = MessageDigest.isEqual(want, derive(password, salt, Integer.parseInt(f[0])));
    if (ok) {
      VERIFIED.put(key, Boolean.TRUE);
    }
    return ok;
  }

  private static String fastDigest(byte[] salt, char[] password) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(salt);
      d.update(new String(password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(d.digest());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Slow derivations made (for tests: a request must not pay one each). */
  static final java.util.concurrent.atomic.AtomicLong DERIVATIONS =
      new java.util.concurrent.atomic.AtomicLong();

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    DERIVATIONS.incrementAndGet();
    try {
      PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, 256);
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec)
          .getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is missing from this JVM", e);
    }
  }

  @Override
  public String getPrefix() {
    return PREFIX;
  }

  @Override
  public Credential getCredential(String credential) {
    String stored = credential.startsWith(PREFIX) ? credential : PREFIX + credential;
    return new Credential() {
      private static final long serialVersionUID = 1L;

      @Override
      public boolean check(Object given) {
        char[] password = given instanceof char[] c ? c
            : given instanceof String s ? s.toCharArray() : null;
        return password != null && matches(stored, password);
      }
    };
  }
}

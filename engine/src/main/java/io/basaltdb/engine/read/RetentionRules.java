package io.basaltdb.engine.read;

/**
 * A family's rules for which versions exist: at most {@code maxVersions} live versions per
 * column, versions older than {@code ttlSeconds} expired (0 = no TTL) except the newest
 * {@code minVersions}. Immutable; the values are checked where they are set
 * ({@code FamilyOptions}).
 */
public record RetentionRules(int maxVersions, int minVersions, long ttlSeconds) {
  /** A family's rules, as its options set them. */
  public static RetentionRules of(io.basaltdb.storage.FamilyOptions o) {
    return new RetentionRules(o.maxVersions(), o.minVersions(), o.ttlSeconds());
  }

  /** Timestamps strictly below this are expired at {@code nowMillis}; Long.MIN_VALUE if no TTL. */
  public long expiryBoundary(long nowMillis) {
    if (ttlSeconds == 0) {
      return Long.MIN_VALUE;
    }
    long ttlMillis = ttlSeconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : ttlSeconds * 1000;
    return nowMillis - ttlMillis < nowMillis ? nowMillis - ttlMillis : Long.MIN_VALUE;
  }
}

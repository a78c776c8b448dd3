package io.basaltdb.engine.read;

/**
 * A family's rules for which versions exist: at most {@code maxVersions} live versions per
 * column, versions older than {@code ttlSeconds} expired (0 = no TTL) except the newest
 * {@code minVersions}. Immutable.
 */
public record RetentionRules(int maxVersions, int minVersions, long ttlSeconds) {
  public static final RetentionRules DEFAULT = new RetentionRules(1, 0, 0);

  public RetentionRules {
    if (maxVersions < 1) {
      throw new IllegalArgumentException("VERSIONS must be >= 1, got " + maxVersions);
    }
    if (minVersions < 0 || minVersions > maxVersions) {
      throw new IllegalArgumentException(
          "MIN_VERSIONS must be in [0, VERSIONS=" + maxVersions + "], got " + minVersions);
    }
    if (ttlSeconds < 0) {
      throw new IllegalArgumentException("TTL must be >= 0 seconds, got " + ttlSeconds);
    }
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

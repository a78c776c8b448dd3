package io.basaltdb.storage;

/**
 * A region's size and activity, for tools and for the SQL layer's cost model and parallel
 * scans. {@code cellCount} counts cells in files and memstores, versions and tombstones
 * included (an estimate).
 */
public record RegionStats(String name, long memstoreBytes, long fileCount, long fileBytes,
    long reads, long writes, long blockedWrites, long cellCount) {}

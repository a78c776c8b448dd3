/**
 * Online backup and restore of an embedded database ({@code engine/doc/backup.md}): what a
 * backup's cut captured is written by {@link io.basaltdb.engine.backup.BackupWriter} with a
 * checksummed {@link io.basaltdb.engine.backup.BackupManifest} last; {@link
 * io.basaltdb.engine.backup.BackupCheck} verifies a backup and {@link
 * io.basaltdb.engine.backup.BackupRestore} makes a database of one. The cut itself is the
 * database's ({@code DatabaseBackup}); this package names no store, region or database.
 */
package io.basaltdb.engine.backup;

package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link IndexDdlAcrossProcesses} on the embedded engine seen as two processes sharing it
 * ({@link RowsAloneStorage#process}: registries and caches of their own, one another's DDL seen
 * through the shared catalog version).
 */
class IndexDdlAcrossProcessesTest implements IndexDdlAcrossProcesses.Processes {
  private static final int ROWS = IndexDdlAcrossProcesses.ROWS;

  private final ClientDeath death = new ClientDeath();
  private Database base;
  private RowsAloneStorage writerProcess;
  private RowsAloneStorage ddlProcess;

  @BeforeEach
  void open() {
    base = Database.openTemporary(EngineOptions.defaults());
    writerProcess = RowsAloneStorage.process(base, death);
    ddlProcess = RowsAloneStorage.process(base, new ClientDeath());
  }

  @AfterEach
  void close() {
    writerProcess.close();
    ddlProcess.close();
    base.close();
  }

  @Override
  public Connection writer() throws SQLException {
    return BasaltConnections.open(writerProcess);
  }

  @Override
  public Connection ddl() throws SQLException {
    return BasaltConnections.open(ddlProcess);
  }

  @Override
  public ClientDeath death() {
    return death;
  }

  @Override
  public String suffix() {
    return "";
  }

  private IndexDdlAcrossProcesses scenarios() throws SQLException {
    IndexDdlAcrossProcesses s = new IndexDdlAcrossProcesses(this);
    s.createSources();
    return s;
  }

  @Test
  void anIndexCreatedDuringAnInsertHasTheRowsItHeld() throws SQLException {
    assertEquals(2 * ROWS + 1,
        scenarios().anIndexCreatedDuringAWriteHasTheRowsItHeld("T", "INSERT"));
  }

  @Test
  void anIndexCreatedDuringAnUpsertHasTheRowsItHeld() throws SQLException {
    assertEquals(2 * ROWS + 1,
        scenarios().anIndexCreatedDuringAWriteHasTheRowsItHeld("T", "UPSERT"));
  }

  @Test
  void aSecondIndexCreatedDuringAnIndexedWrite() throws SQLException {
    assertEquals(2 * ROWS + 1, scenarios().aSecondIndexCreatedDuringAnIndexedWrite("T"));
  }

  @Test
  void anIndexDroppedDuringAnIndexedWriteGetsNoMoreEntries() throws SQLException {
    assertEquals(2 * ROWS + 1,
        scenarios().anIndexDroppedDuringAnIndexedWriteGetsNoMoreEntries("T"));
  }

  @Test
  void rowsNotSentWhenTheListChangedAsTheyWereBeingWritten() throws SQLException {
    assertEquals(ROWS + 1, scenarios().rowsNotSentWhenTheListChangedAsTheyWereBeingWritten("T"));
  }
}

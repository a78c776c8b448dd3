package io.basaltdb.sql.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;

/**
 * Avatica's result set with every method it does not support (the {@code update*} methods of an
 * updatable result set, positioning beyond forward reading, named cursors, row ids) refused
 * with a {@link java.sql.SQLFeatureNotSupportedException} naming the method, SQLState 0A000
 * ({@link Unsupported}); Avatica refuses them without a message or a state. Basalt's result
 * sets are read-only and forward-only: change rows with UPDATE, DELETE or UPSERT statements.
 * The overrides are made from the list of such methods a probe of every ResultSet method gives.
 */
abstract class ReadOnlyResultSet extends AvaticaResultSet {
  ReadOnlyResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    super(statement, state, signature, metaData, timeZone, firstFrame);
  }

  @Override
  public void updateBytes(int a0, byte[] a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBytes");
  }

  @Override
  public void updateBytes(String a0, byte[] a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBytes");
  }

  @Override
  public void updateTime(String a0, java.sql.Time a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateTime");
  }

  @Override
  public void updateTime(int a0, java.sql.Time a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateTime");
  }

  @Override
  public String getCursorName() throws SQLException {
    throw Unsupported.method("ResultSet.getCursorName");
  }

  @Override
  public boolean isLast() throws SQLException {
    throw Unsupported.method("ResultSet.isLast");
  }

  @Override
  public void updateNull(int a0) throws SQLException {
    throw Unsupported.method("ResultSet.updateNull");
  }

  @Override
  public void updateNull(String a0) throws SQLException {
    throw Unsupported.method("ResultSet.updateNull");
  }

  @Override
  public void updateBoolean(String a0, boolean a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBoolean");
  }

  @Override
  public void updateBoolean(int a0, boolean a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBoolean");
  }

  @Override
  public void updateByte(int a0, byte a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateByte");
  }

  @Override
  public void updateByte(String a0, byte a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateByte");
  }

  @Override
  public void updateShort(int a0, short a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateShort");
  }

  @Override
  public void updateShort(String a0, short a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateShort");
  }

  @Override
  public void updateInt(int a0, int a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateInt");
  }

  @Override
  public void updateInt(String a0, int a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateInt");
  }

  @Override
  public void updateLong(int a0, long a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateLong");
  }

  @Override
  public void updateLong(String a0, long a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateLong");
  }

  @Override
  public void updateFloat(String a0, float a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateFloat");
  }

  @Override
  public void updateFloat(int a0, float a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateFloat");
  }

  @Override
  public void updateDouble(int a0, double a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateDouble");
  }

  @Override
  public void updateDouble(String a0, double a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateDouble");
  }

  @Override
  public void updateBigDecimal(int a0, java.math.BigDecimal a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBigDecimal");
  }

  @Override
  public void updateBigDecimal(String a0, java.math.BigDecimal a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBigDecimal");
  }

  @Override
  public void updateString(int a0, String a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateString");
  }

  @Override
  public void updateString(String a0, String a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateString");
  }

  @Override
  public void updateDate(int a0, java.sql.Date a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateDate");
  }

  @Override
  public void updateDate(String a0, java.sql.Date a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateDate");
  }

  @Override
  public void updateTimestamp(int a0, java.sql.Timestamp a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateTimestamp");
  }

  @Override
  public void updateTimestamp(String a0, java.sql.Timestamp a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateTimestamp");
  }

  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1, int a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateAsciiStream");
  }

  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateAsciiStream");
  }

  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateAsciiStream");
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateAsciiStream");
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateAsciiStream");
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, int a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateAsciiStream");
  }

  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1, int a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateBinaryStream");
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateBinaryStream");
  }

  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBinaryStream");
  }

  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateBinaryStream");
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBinaryStream");
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, int a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateBinaryStream");
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateCharacterStream");
  }

  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1, int a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateCharacterStream");
  }

  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateCharacterStream");
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateCharacterStream");
  }

  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateCharacterStream");
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, int a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateCharacterStream");
  }

  @Override
  public void updateObject(String a0, Object a1, java.sql.SQLType a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void updateObject(int a0, Object a1, java.sql.SQLType a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void updateObject(String a0, Object a1, java.sql.SQLType a2, int a3)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void updateObject(int a0, Object a1, java.sql.SQLType a2, int a3)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void updateObject(int a0, Object a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void updateObject(String a0, Object a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void updateObject(String a0, Object a1, int a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void updateObject(int a0, Object a1, int a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateObject");
  }

  @Override
  public void cancelRowUpdates() throws SQLException {
    throw Unsupported.method("ResultSet.cancelRowUpdates");
  }

  @Override
  public void moveToCurrentRow() throws SQLException {
    throw Unsupported.method("ResultSet.moveToCurrentRow");
  }

  @Override
  public void updateRef(String a0, java.sql.Ref a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateRef");
  }

  @Override
  public void updateRef(int a0, java.sql.Ref a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateRef");
  }

  @Override
  public void updateBlob(String a0, java.io.InputStream a1, long a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateBlob");
  }

  @Override
  public void updateBlob(int a0, java.io.InputStream a1, long a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateBlob");
  }

  @Override
  public void updateBlob(int a0, java.sql.Blob a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBlob");
  }

  @Override
  public void updateBlob(String a0, java.sql.Blob a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBlob");
  }

  @Override
  public void updateBlob(int a0, java.io.InputStream a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBlob");
  }

  @Override
  public void updateBlob(String a0, java.io.InputStream a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateBlob");
  }

  @Override
  public void updateClob(String a0, java.sql.Clob a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateClob");
  }

  @Override
  public void updateClob(int a0, java.io.Reader a1, long a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateClob");
  }

  @Override
  public void updateClob(int a0, java.sql.Clob a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateClob");
  }

  @Override
  public void updateClob(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateClob");
  }

  @Override
  public void updateClob(int a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateClob");
  }

  @Override
  public void updateClob(String a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateClob");
  }

  @Override
  public void updateArray(String a0, java.sql.Array a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateArray");
  }

  @Override
  public void updateArray(int a0, java.sql.Array a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateArray");
  }

  @Override
  public java.sql.RowId getRowId(String a0) throws SQLException {
    throw Unsupported.method("ResultSet.getRowId");
  }

  @Override
  public java.sql.RowId getRowId(int a0) throws SQLException {
    throw Unsupported.method("ResultSet.getRowId");
  }

  @Override
  public void updateRowId(String a0, java.sql.RowId a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateRowId");
  }

  @Override
  public void updateRowId(int a0, java.sql.RowId a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateRowId");
  }

  @Override
  public void updateNString(int a0, String a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNString");
  }

  @Override
  public void updateNString(String a0, String a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNString");
  }

  @Override
  public void updateNClob(String a0, java.sql.NClob a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNClob");
  }

  @Override
  public void updateNClob(int a0, java.sql.NClob a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNClob");
  }

  @Override
  public void updateNClob(String a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNClob");
  }

  @Override
  public void updateNClob(int a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNClob");
  }

  @Override
  public void updateNClob(int a0, java.io.Reader a1, long a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateNClob");
  }

  @Override
  public void updateNClob(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw Unsupported.method("ResultSet.updateNClob");
  }

  @Override
  public void updateSQLXML(String a0, java.sql.SQLXML a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateSQLXML");
  }

  @Override
  public void updateSQLXML(int a0, java.sql.SQLXML a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateSQLXML");
  }

  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNCharacterStream");
  }

  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateNCharacterStream");
  }

  @Override
  public void updateNCharacterStream(String a0, java.io.Reader a1, long a2)
      throws SQLException {
    throw Unsupported.method("ResultSet.updateNCharacterStream");
  }

  @Override
  public void updateNCharacterStream(String a0, java.io.Reader a1) throws SQLException {
    throw Unsupported.method("ResultSet.updateNCharacterStream");
  }
}

package io.basaltdb.sql.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Calendar;
import java.util.Map;
import org.apache.calcite.avatica.util.Cursor;
import org.joou.UByte;
import org.joou.UInteger;
import org.joou.ULong;
import org.joou.UShort;

/** An Avatica column accessor that answers every call with another's; subclasses change some. */
class ForwardingAccessor implements Cursor.Accessor {
  final Cursor.Accessor delegate;

  ForwardingAccessor(Cursor.Accessor delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean wasNull() throws SQLException {
    return delegate.wasNull();
  }

  @Override
  public String getString() throws SQLException {
    return delegate.getString();
  }

  @Override
  public boolean getBoolean() throws SQLException {
    return delegate.getBoolean();
  }

  @Override
  public byte getByte() throws SQLException {
    return delegate.getByte();
  }

  @Override
  public UByte getUByte() throws SQLException {
    return delegate.getUByte();
  }

  @Override
  public short getShort() throws SQLException {
    return delegate.getShort();
  }

  @Override
  public UShort getUShort() throws SQLException {
    return delegate.getUShort();
  }

  @Override
  public int getInt() throws SQLException {
    return delegate.getInt();
  }

  @Override
  public UInteger getUInt() throws SQLException {
    return delegate.getUInt();
  }

  @Override
  public long getLong() throws SQLException {
    return delegate.getLong();
  }

  @Override
  public ULong getULong() throws SQLException {
    return delegate.getULong();
  }

  @Override
  public float getFloat() throws SQLException {
    return delegate.getFloat();
  }

  @Override
  public double getDouble() throws SQLException {
    return delegate.getDouble();
  }

  @Override
  public BigDecimal getBigDecimal() throws SQLException {
    return delegate.getBigDecimal();
  }

  @Override
  public BigDecimal getBigDecimal(int scale) throws SQLException {
    return delegate.getBigDecimal(scale);
  }

  @Override
  public byte[] getBytes() throws SQLException {
    return delegate.getBytes();
  }

  @Override
  public InputStream getAsciiStream() throws SQLException {
    return delegate.getAsciiStream();
  }

  @Override
  public InputStream getUnicodeStream() throws SQLException {
    return delegate.getUnicodeStream();
  }

  @Override
  public InputStream getBinaryStream() throws SQLException {
    return delegate.getBinaryStream();
  }

  @Override
  public Object getObject() throws SQLException {
    return delegate.getObject();
  }

  @Override
  public Reader getCharacterStream() throws SQLException {
    return delegate.getCharacterStream();
  }

  @Override
  public Object getObject(Map<String, Class<?>> map) throws SQLException {
    return delegate.getObject(map);
  }

  @Override
  public java.sql.Ref getRef() throws SQLException {
    return delegate.getRef();
  }

  @Override
  public java.sql.Blob getBlob() throws SQLException {
    return delegate.getBlob();
  }

  @Override
  public java.sql.Clob getClob() throws SQLException {
    return delegate.getClob();
  }

  @Override
  public java.sql.Array getArray() throws SQLException {
    return delegate.getArray();
  }

  @Override
  public java.sql.Struct getStruct() throws SQLException {
    return delegate.getStruct();
  }

  @Override
  public java.sql.Date getDate(Calendar calendar) throws SQLException {
    return delegate.getDate(calendar);
  }

  @Override
  public java.sql.Time getTime(Calendar calendar) throws SQLException {
    return delegate.getTime(calendar);
  }

  @Override
  public java.sql.Timestamp getTimestamp(Calendar calendar) throws SQLException {
    return delegate.getTimestamp(calendar);
  }

  @Override
  public java.net.URL getURL() throws SQLException {
    return delegate.getURL();
  }

  @Override
  public java.sql.NClob getNClob() throws SQLException {
    return delegate.getNClob();
  }

  @Override
  public java.sql.SQLXML getSQLXML() throws SQLException {
    return delegate.getSQLXML();
  }

  @Override
  public String getNString() throws SQLException {
    return delegate.getNString();
  }

  @Override
  public Reader getNCharacterStream() throws SQLException {
    return delegate.getNCharacterStream();
  }

  @Override
  public <T> T getObject(Class<T> type) throws SQLException {
    return delegate.getObject(type);
  }
}

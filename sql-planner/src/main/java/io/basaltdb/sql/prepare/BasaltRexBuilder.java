package io.basaltdb.sql.prepare;

import io.basaltdb.sql.type.InstantText;
import java.time.ZoneOffset;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.TimestampString;

/**
 * Calcite's RexBuilder, but a text literal cast to {@code TIMESTAMP WITH TIME ZONE} (an
 * instant: Calcite's {@code TIMESTAMP WITH LOCAL TIME ZONE}) is read as PostgreSQL reads it
 * ({@link InstantText}): text with an offset or zone becomes that instant's literal; text
 * without one a TIMESTAMP literal cast to the instant type, which Calcite places in the session's
 * zone when the statement runs. Calcite itself reads only {@code yyyy-MM-dd HH:mm:ss zone}.
 * Each statement's planner builds one ({@code BasaltPrepare}).
 */
final class BasaltRexBuilder extends RexBuilder {
  BasaltRexBuilder(RelDataTypeFactory typeFactory) {
    super(typeFactory);
  }

  @Override
  public RexNode makeCast(SqlParserPos pos, RelDataType type, RexNode exp,
      boolean matchNullability, boolean safe, RexLiteral format) {
    RexNode instant = instantOfText(pos, type, exp, safe, format);
    return instant != null ? instant
        : super.makeCast(pos, type, exp, matchNullability, safe, format);
  }

  @Override
  public RexNode makeAbstractCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean safe,
      RexLiteral format) {
    RexNode instant = instantOfText(pos, type, exp, safe, format);
    return instant != null ? instant : super.makeAbstractCast(pos, type, exp, safe, format);
  }

  /** The cast of a text literal to the instant type as Basalt reads it, else null. */
  private RexNode instantOfText(SqlParserPos pos, RelDataType type, RexNode exp, boolean safe,
      RexLiteral format) {
    if (type.getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
        || !(exp instanceof RexLiteral literal) || !SqlTypeUtil.isCharacter(literal.getType())
        || literal.isNull() || (format != null && !format.isNull())) {
      return null;
    }
    InstantText.Parsed parsed = InstantText.parse(literal.getValueAs(String.class), null);
    int precision = Math.max(type.getPrecision(), 3);
    RexNode out;
    if (parsed.zone() != null) {
      long millis = parsed.epochMillis(ZoneOffset.UTC);
      out = makeTimestampWithLocalTimeZoneLiteral(TimestampString.fromMillisSinceEpoch(millis),
          precision);
    } else {
      RexLiteral local = makeTimestampLiteral(new TimestampString(parsed.localText()), precision);
      out = makeAbstractCast(pos, type, local, safe);
    }
    return type.isNullable() && !out.getType().isNullable()
        ? makeAbstractCast(pos, type, out, safe) : out;
  }
}

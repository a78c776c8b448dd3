package io.basaltdb.jdbc.csv;

import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.QuoteMode;

/**
 * How a CSV file is read or written by {@link CsvLoad} and {@link CsvExport}: RFC 4180 with a
 * chosen delimiter and quote, and NULL told from the empty string. An unquoted field equal to
 * the NULL marker (by default the empty field) is NULL; a quoted one ({@code ""}) is that text.
 * Written files quote every value but NULLs, so they read back the same. {@code columns}: the
 * table columns of the file's fields in order (empty: named by the file's header row).
 */
public record CsvOptions(char delimiter, char quote, String nullMarker, boolean header,
    List<String> columns) {
  public static final CsvOptions DEFAULTS = new CsvOptions(',', '"', "", true, List.of());

  public CsvOptions {
    columns = List.copyOf(columns);
    if (delimiter == quote || delimiter == '\n' || delimiter == '\r') {
      throw new IllegalArgumentException("the delimiter cannot be the quote or a line break");
    }
  }

  /** Commons CSV's format for these options. */
  CSVFormat format() {
    return CSVFormat.RFC4180.builder()
        .setDelimiter(delimiter)
        .setQuote(quote)
        .setNullString(nullMarker)
        .setQuoteMode(QuoteMode.ALL_NON_NULL) // a quoted NULL marker is text, not NULL
        .setRecordSeparator("\r\n")
        .get();
  }
}

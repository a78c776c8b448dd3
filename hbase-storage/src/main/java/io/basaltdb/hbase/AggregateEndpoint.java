package io.basaltdb.hbase;

import io.basaltdb.storage.ColumnAggregate;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.filter.Filters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.exceptions.UnknownProtocolException;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.ByteString;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.DescriptorProtos.DescriptorProto;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.Descriptors;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.DynamicMessage;

/**
 * HBase's own aggregation endpoint ({@code AggregateImplementation} of hbase-endpoint, shipped
 * in every HBase's lib directory and loaded per table or for all tables by the cluster's
 * operator), called through the shaded client without its generated classes: the service's
 * protobuf descriptor ({@code hbase.pb.AggregateService} of HBase's Aggregate.proto) is built
 * here from its field numbers, its request carries the scan as HBase's Client.proto message.
 * Each call runs one scan per region on the region servers; one number per region comes back.
 *
 * <p>Values are read by HBase's {@code LongColumnInterpreter} (8-byte big-endian longs: the
 * cells of Basalt's BIGINT), whose sum wraps silently past a long where Basalt refuses the
 * sum. So a sum is asked together with a count of the values outside +-2^40 (a filter of two
 * byte comparisons); when there are none and the region read fewer than 2^23 rows, no sum of
 * them can leave a long and the wrapped arithmetic is exact. Otherwise this gives up (null) and
 * the SQL layer reads the rows, refusing a sum that does not fit with 22003.
 */
final class AggregateEndpoint {
  static final String IMPLEMENTATION = "org.apache.hadoop.hbase.coprocessor.AggregateImplementation";
  private static final String INTERPRETER =
      "org.apache.hadoop.hbase.client.coprocessor.LongColumnInterpreter";
  /** Values within +-2^SMALL_BITS, at most 2^(63 - SMALL_BITS) rows: a sum that fits a long. */
  private static final int SMALL_BITS = 40;
  private static final long MOST_ROWS = 1L << (63 - SMALL_BITS);
  /** A region found without the endpoint is not asked again for this long. */
  private static final long ABSENT_NANOS = 60_000_000_000L;

  private static final Descriptors.ServiceDescriptor SERVICE = service();
  private static final Descriptors.Descriptor REQUEST = SERVICE.getFile()
      .findMessageTypeByName("AggregateRequest");
  private static final DynamicMessage RESPONSE = DynamicMessage.getDefaultInstance(
      SERVICE.getFile().findMessageTypeByName("AggregateResponse"));

  /** The connection property that turns this off ({@code false}): aggregates read rows. */
  static final String ENABLED_PROPERTY = "hbase.basalt.aggregate.endpoint";

  private final boolean enabled;
  private final Map<TableName, Long> absentUntil = new java.util.concurrent.ConcurrentHashMap<>();
  /** The threads that call regions, this storage's: stopped when it closes ({@link #close}). */
  private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "basalt-hbase-aggregate");
    t.setDaemon(true);
    return t;
  });

  AggregateEndpoint(boolean enabled) {
    this.enabled = enabled;
  }

  /**
   * The aggregate, or null when the table has no endpoint loaded or a sum could not be proven
   * to fit (the caller reads the rows then).
   */
  ColumnAggregate.Answer run(Table table, TableName name, ColumnAggregate req) throws IOException {
    if (!enabled) {
      return null;
    }
    Long until = absentUntil.get(name);
    if (until != null && System.nanoTime() < until) {
      return null;
    }
    try {
      return switch (req.kind()) {
        case ROWS -> {
          Map<byte[], DynamicMessage> parts = call(table, "GetRowNum", req, null);
          countRegions(req, parts.size());
          yield new ColumnAggregate.Answer(rows(parts));
        }
        case MIN, MAX -> extreme(table, req);
        case SUM -> sum(table, req);
      };
    } catch (EndpointAbsentException e) {
      absentUntil.put(name, System.nanoTime() + ABSENT_NANOS);
      return null;
    }
  }

  private static long rows(Map<byte[], DynamicMessage> parts) {
    long n = 0;
    for (DynamicMessage m : parts.values()) {
      n += firstLong(m);
    }
    return n;
  }

  private static ColumnAggregate.Answer extreme(Table table, ColumnAggregate req)
      throws IOException {
    boolean max = req.kind() == ColumnAggregate.Kind.MAX;
    Long best = null;
    Map<byte[], DynamicMessage> parts = call(table, max ? "GetMax" : "GetMin", req, null);
    for (DynamicMessage m : parts.values()) {
      Long v = longMessage(m);
      if (v != null && (best == null || (max ? v > best : v < best))) {
        best = v;
      }
    }
    countRegions(req, parts.size());
    return new ColumnAggregate.Answer(best);
  }

  private ColumnAggregate.Answer sum(Table table, ColumnAggregate req) throws IOException {
    CompletableFuture<Map<byte[], DynamicMessage>> sums =
        CompletableFuture.supplyAsync(() -> unchecked(() -> call(table, "GetAvg", req, null)),
            calls);
    long large = rows(call(table, "GetRowNum", req, outsideSmall(req)));
    Map<byte[], DynamicMessage> parts;
    try {
      parts = sums.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      throw e;
    }
    if (large > 0) {
      return null; // a value beyond +-2^40: the wrapped sum proves nothing
    }
    BigInteger total = null;
    for (DynamicMessage m : parts.values()) {
      Long s = longMessage(m);
      if (s == null) {
        continue; // no value in that region
      }
      ByteString second = (ByteString) m.getField(field(m, "second_part"));
      long loops = ByteBuffer.wrap(second.toByteArray()).getLong(); // >= the region's rows
      if (loops >= MOST_ROWS) {
        return null;
      }
      total = total == null ? BigInteger.valueOf(s) : total.add(BigInteger.valueOf(s));
    }
    countRegions(req, parts.size());
    if (total != null && total.bitLength() > 63) {
      throw new ArithmeticException("SUM out of range of BIGINT");
    }
    return new ColumnAggregate.Answer(total == null ? null : total.longValue());
  }

  /** Rows whose value is below -2^40 or at least 2^40: bytes within [2^40, -2^40) unsigned. */
  private static Filter outsideSmall(ColumnAggregate req) {
    SingleColumnValueFilter from = new SingleColumnValueFilter(req.family(), req.qualifier(),
        CompareOperator.GREATER_OR_EQUAL,
        new BinaryComparator(ByteBuffer.allocate(8).putLong(1L << SMALL_BITS).array()));
    SingleColumnValueFilter to = new SingleColumnValueFilter(req.family(), req.qualifier(),
        CompareOperator.LESS,
        new BinaryComparator(ByteBuffer.allocate(8).putLong(-(1L << SMALL_BITS)).array()));
    from.setFilterIfMissing(true);
    from.setLatestVersionOnly(true);
    to.setFilterIfMissing(true);
    to.setLatestVersionOnly(true);
    return new FilterList(FilterList.Operator.MUST_PASS_ALL, from, to);
  }

  private static void countRegions(ColumnAggregate req, int regions) {
    if (req.metrics() != null) {
      req.metrics().storeReadsNotCounted();
      req.metrics().regionAggregates.addAndGet(regions);
    }
  }

  /** One method of the service on every region the request's ranges touch. */
  private static Map<byte[], DynamicMessage> call(Table table, String method,
      ColumnAggregate req, Filter condition) throws IOException {
    List<Filters.RowRange> ranges = req.ranges();
    Scan scan = new Scan().withStartRow(ranges.get(0).start())
        .withStopRow(ranges.get(ranges.size() - 1).stop())
        .addColumn(req.family(), req.qualifier()).readVersions(1);
    if (req.minTimestamp() != 0 || req.maxTimestamp() != Long.MAX_VALUE) {
      scan.setTimeRange(req.minTimestamp(), req.maxTimestamp());
    }
    List<Filter> filters = new ArrayList<>(3);
    if (method.equals("GetRowNum")) {
      // GetRowNum takes the scan's first qualifier out before it opens its scanner (reading
      // the whole family): an empty qualifier, which sorts first and no SQL cell has, goes
      // instead, and the filter keeps the count to the rows holding the cell whatever it does
      scan.addColumn(req.family(), new byte[0]);
      filters.add(new ColumnRangeFilter(req.qualifier(), true, req.qualifier(), true));
    }
    if (ranges.size() > 1) {
      List<MultiRowRangeFilter.RowRange> rr = new ArrayList<>(ranges.size());
      for (Filters.RowRange r : ranges) {
        rr.add(new MultiRowRangeFilter.RowRange(r.start(), true, r.stop(), false));
      }
      filters.add(new MultiRowRangeFilter(rr));
    }
    if (condition != null) {
      filters.add(condition);
    }
    if (!filters.isEmpty()) {
      scan.setFilter(filters.size() == 1 ? filters.get(0) : new FilterList(filters));
    }
    DynamicMessage request = DynamicMessage.newBuilder(REQUEST)
        .setField(REQUEST.findFieldByName("interpreter_class_name"), INTERPRETER)
        .setField(REQUEST.findFieldByName("scan"), ProtobufUtil.toScan(scan))
        .build();
    try {
      return table.batchCoprocessorService(SERVICE.findMethodByName(method), request,
          scan.getStartRow(), scan.getStopRow(), RESPONSE);
    } catch (Throwable t) {
      for (Throwable c = t; c != null; c = c.getCause()) {
        if (c instanceof UnknownProtocolException
            || String.valueOf(c.getMessage()).contains("No registered coprocessor service")) {
          throw new EndpointAbsentException();
        }
      }
      if (t instanceof IOException io) {
        throw io;
      }
      if (t instanceof Error e) {
        throw e;
      }
      throw new IOException("aggregation endpoint " + method + " failed: " + t.getMessage(), t);
    }
  }

  private static long firstLong(DynamicMessage m) {
    ByteString b = first(m);
    return b == null ? 0 : ByteBuffer.wrap(b.toByteArray()).getLong();
  }

  /** The first part as an {@code hbase.pb.LongMsg}, or null when the region had no value. */
  private static Long longMessage(DynamicMessage m) throws IOException {
    ByteString b = first(m);
    return b == null ? null : HBaseProtos.LongMsg.parseFrom(b.toByteArray()).getLongMsg();
  }

  private static ByteString first(DynamicMessage m) {
    Descriptors.FieldDescriptor f = field(m, "first_part");
    return m.getRepeatedFieldCount(f) == 0 ? null : (ByteString) m.getRepeatedField(f, 0);
  }

  private static Descriptors.FieldDescriptor field(DynamicMessage m, String name) {
    return m.getDescriptorForType().findFieldByName(name);
  }

  // ------------------------------------------------------------ the service's descriptor

  /**
   * {@code hbase.pb.AggregateService} as Aggregate.proto declares it (the methods used), but in
   * no package: a region server registers HBase's own services under their bare name (as HBase's
   * client, seeing the {@code hbase.pb} package, asks for them), and a descriptor built here is
   * sent by its full name.
   */
  private static Descriptors.ServiceDescriptor service() {
    FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder()
        .setName("basalt/hbase/Aggregate.proto")
        .addDependency(ClientProtos.getDescriptor().getName());
    file.addMessageType(DescriptorProto.newBuilder().setName("AggregateRequest")
        .addField(field("interpreter_class_name", 1, FieldDescriptorProto.Label.LABEL_REQUIRED,
            FieldDescriptorProto.Type.TYPE_STRING))
        .addField(field("scan", 2, FieldDescriptorProto.Label.LABEL_REQUIRED,
            FieldDescriptorProto.Type.TYPE_MESSAGE).setTypeName(".hbase.pb.Scan"))
        .addField(field("interpreter_specific_bytes", 3,
            FieldDescriptorProto.Label.LABEL_OPTIONAL, FieldDescriptorProto.Type.TYPE_BYTES))
        .addField(field("client_supports_partial_result", 4,
            FieldDescriptorProto.Label.LABEL_OPTIONAL, FieldDescriptorProto.Type.TYPE_BOOL)));
    file.addMessageType(DescriptorProto.newBuilder().setName("AggregateResponse")
        .addField(field("first_part", 1, FieldDescriptorProto.Label.LABEL_REPEATED,
            FieldDescriptorProto.Type.TYPE_BYTES))
        .addField(field("second_part", 2, FieldDescriptorProto.Label.LABEL_OPTIONAL,
            FieldDescriptorProto.Type.TYPE_BYTES))
        .addField(field("next_chunk_start_row", 3, FieldDescriptorProto.Label.LABEL_OPTIONAL,
            FieldDescriptorProto.Type.TYPE_BYTES))
        .addField(field("wait_interval_ms", 4, FieldDescriptorProto.Label.LABEL_OPTIONAL,
            FieldDescriptorProto.Type.TYPE_UINT64)));
    ServiceDescriptorProto.Builder service = ServiceDescriptorProto.newBuilder()
        .setName("AggregateService");
    for (String m : List.of("GetMax", "GetMin", "GetSum", "GetRowNum", "GetAvg")) {
      service.addMethod(MethodDescriptorProto.newBuilder().setName(m)
          .setInputType(".AggregateRequest")
          .setOutputType(".AggregateResponse"));
    }
    file.addService(service);
    try {
      return Descriptors.FileDescriptor.buildFrom(file.build(),
          new Descriptors.FileDescriptor[] {ClientProtos.getDescriptor()})
          .findServiceByName("AggregateService");
    } catch (Descriptors.DescriptorValidationException e) {
      throw new IllegalStateException("HBase's AggregateService descriptor: " + e.getMessage(), e);
    }
  }

  private static FieldDescriptorProto.Builder field(String name, int number,
      FieldDescriptorProto.Label label, FieldDescriptorProto.Type type) {
    return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setLabel(label)
        .setType(type);
  }

  // ------------------------------------------------------------ plumbing

  /** The table's regions have no such service: not loaded there. */
  private static final class EndpointAbsentException extends IOException {
    EndpointAbsentException() {
      super("no " + IMPLEMENTATION + " on the table's regions");
    }
  }

  private interface IoSupplier<T> {
    T get() throws IOException;
  }

  private static <T> T unchecked(IoSupplier<T> s) {
    try {
      return s.get();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The storage closed: its calling threads stop. */
  void close() {
    calls.shutdownNow();
  }
}

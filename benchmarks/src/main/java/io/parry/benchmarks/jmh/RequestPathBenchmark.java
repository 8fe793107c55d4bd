package io.parry.benchmarks.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.util.ReferenceCountUtil;
import io.parry.benchmarks.baseline.BaselineHandler;
import io.parry.benchmarks.baseline.Http2BaselineHandler;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.ServerOptions;
import io.parry.server.internal.ServerInitializer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One request through a whole server connection with no socket, Parry's against the raw-Netty baseline's:
 * request bytes in, one read batch (decode, handle, write, flush at read-complete), response bytes out and
 * released. Run it with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes each request allocates,
 * which unlike wall-clock req/s does not depend on what else the machine is doing.
 *
 * <p>Scenarios: {@code h1-plaintext}, {@code h1-json} and {@code h1-echo} (a 1 KiB {@code POST /echo}) as
 * {@code benchmarks/load.sh} sends them with wrk; {@code h2-plaintext}, one stream per request on one
 * h2c connection (prior knowledge) as {@code benchmarks/h2.sh} does with h2load. The Parry side serves the
 * hello example's routes; the baseline is {@code NettyBaselineServer}'s and {@code
 * NettyHttp2BaselineServer}'s handlers.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar RequestPathBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled", "-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class RequestPathBenchmark {
    private static final byte[] ECHO_BODY = "0123456789abcdef".repeat(64).getBytes(StandardCharsets.US_ASCII);
    private static final HttpResponse PLAINTEXT = HttpResponse.ofText("Hello, World!");

    @Param({"parry", "netty"})
    public String server;

    @Param({"h1-plaintext", "h1-json", "h1-echo", "h2-plaintext"})
    public String scenario;

    private EmbeddedChannel channel;
    private byte[] request;
    private Http2Requests http2;

    @Setup(Level.Iteration)
    public void connect() {
        boolean h2 = scenario.startsWith("h2");
        channel = new EmbeddedChannel();
        if (server.equals("parry")) {
            channel.pipeline().addLast(ServerInitializer.detached(ServerOptions.ofDefault(), new HelloRoutes()));
        } else if (h2) {
            channel.pipeline().addLast(Http2BaselineHandler.create());
        } else {
            channel.pipeline()
                    .addLast(new HttpServerCodec())
                    .addLast(new HttpServerExpectContinueHandler())
                    .addLast(new BaselineHandler());
        }
        if (h2) {
            http2 = new Http2Requests("/plaintext");
            channel.writeInbound(Unpooled.wrappedBuffer(Http2Requests.connectionStart()));
            drainOutbound();
        } else {
            request = http1Request(scenario);
        }
    }

    @Benchmark
    public int request() {
        byte[] bytes = http2 != null ? http2.next() : request;
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        int written = drainOutbound();
        if (written == 0) {
            throw new IllegalStateException(server + " " + scenario + " answered nothing");
        }
        return written;
    }

    @TearDown(Level.Iteration)
    public void close() {
        channel.finishAndReleaseAll();
        http2 = null;
    }

    private int drainOutbound() {
        int written = 0;
        for (Object out; (out = channel.readOutbound()) != null; ) {
            if (out instanceof ByteBuf buf) {
                written += buf.readableBytes();
            }
            ReferenceCountUtil.release(out);
        }
        return written;
    }

    private static byte[] http1Request(String scenario) {
        String host = "Host: 127.0.0.1:8080\r\n";
        String head =
                switch (scenario) {
                    case "h1-plaintext" -> "GET /plaintext HTTP/1.1\r\n" + host + "\r\n";
                    case "h1-json" -> "GET /json HTTP/1.1\r\n" + host + "\r\n";
                    case "h1-echo" -> "POST /echo HTTP/1.1\r\n" + host
                            + "Content-Length: 1024\r\nContent-Type: application/octet-stream\r\n\r\n";
                    default -> throw new IllegalArgumentException(scenario);
                };
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        if (!scenario.equals("h1-echo")) {
            return headBytes;
        }
        byte[] all = new byte[headBytes.length + ECHO_BODY.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(ECHO_BODY, 0, all, headBytes.length, ECHO_BODY.length);
        return all;
    }

    /** The hello example's plaintext, JSON and echo routes, dispatched by hand as it does. */
    private static final class HelloRoutes implements Handler {
        @Override
        public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
            switch (request.path()) {
                case "/plaintext":
                    return PLAINTEXT.toStage();
                case "/json":
                    return HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("{\"message\":\"Hello, World!\"}"))
                            .toStage();
                case "/echo":
                    String type = request.headers().get("content-type");
                    HttpHeaders headers =
                            HttpHeaders.of("content-type", type != null ? type : MediaType.OCTET_STREAM.toString());
                    return HttpResponse.of(HttpStatus.OK, headers, request.body())
                            .toStage();
                default:
                    return HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
            }
        }
    }

    /**
     * A client's h2c frames: the connection preface with a connection window opened as far as it goes,
     * then one HEADERS frame (END_STREAM) per request on the next odd stream. As h2load does, the first
     * header block adds {@code :path} and {@code :authority} to the HPACK dynamic table and every later one
     * names them by index (RFC 7541, sections 6.1 and 6.2.1).
     */
    private static final class Http2Requests {
        private final byte[] first;
        private final byte[] indexed;
        private int streamId = 1;

        Http2Requests(String path) {
            first = frame(firstBlock(path));
            // Dynamic table after the first block: :authority at 62 (newest), :path at 63.
            indexed = frame(new byte[] {(byte) 0x82, (byte) 0x86, (byte) (0x80 | 63), (byte) (0x80 | 62)});
        }

        byte[] next() {
            byte[] frame = streamId == 1 ? first : indexed;
            frame[5] = (byte) (streamId >>> 24);
            frame[6] = (byte) (streamId >>> 16);
            frame[7] = (byte) (streamId >>> 8);
            frame[8] = (byte) streamId;
            streamId += 2;
            return frame;
        }

        static byte[] connectionStart() {
            byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            int increment = Integer.MAX_VALUE - 65_535;
            byte[] frames = {
                0,
                0,
                0,
                0x4,
                0,
                0,
                0,
                0,
                0, // SETTINGS, empty
                0,
                0,
                0,
                0x4,
                0x1,
                0,
                0,
                0,
                0, // SETTINGS ack of the server's
                0,
                0,
                4,
                0x8,
                0,
                0,
                0,
                0,
                0, // WINDOW_UPDATE, connection
                (byte) (increment >>> 24),
                (byte) (increment >>> 16),
                (byte) (increment >>> 8),
                (byte) increment
            };
            byte[] all = new byte[preface.length + frames.length];
            System.arraycopy(preface, 0, all, 0, preface.length);
            System.arraycopy(frames, 0, all, preface.length, frames.length);
            return all;
        }

        private static byte[] frame(byte[] block) {
            byte[] frame = new byte[9 + block.length];
            frame[0] = (byte) (block.length >>> 16);
            frame[1] = (byte) (block.length >>> 8);
            frame[2] = (byte) block.length;
            frame[3] = 0x1; // HEADERS
            frame[4] = 0x5; // END_STREAM | END_HEADERS
            System.arraycopy(block, 0, frame, 9, block.length);
            return frame;
        }

        private static byte[] firstBlock(String path) {
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            block.write(0x82); // :method GET (static table 2)
            block.write(0x86); // :scheme http (static table 6)
            literal(block, 4, path); // :path
            literal(block, 1, "127.0.0.1:8080"); // :authority
            return block.toByteArray();
        }

        private static void literal(ByteArrayOutputStream block, int nameIndex, String value) {
            byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
            block.write(0x40 | nameIndex); // literal with incremental indexing, indexed name (6-bit prefix)
            block.write(bytes.length); // no Huffman, length < 127
            block.write(bytes, 0, bytes.length);
        }
    }
}

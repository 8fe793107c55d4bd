package io.parry.benchmarks.socketless;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.util.ReferenceCountUtil;
import io.parry.benchmarks.baseline.BaselineHandler;
import io.parry.benchmarks.baseline.Http2BaselineHandler;
import io.parry.server.ServerOptions;
import io.parry.server.internal.ServerInitializer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One server connection with no socket, Parry's or the raw-Netty baseline's, fed whole requests on the calling
 * thread: request bytes in, one read batch (decode, handle, write, flush at read-complete), response bytes out and
 * released. Everything a request costs the server's event loop runs on the caller's thread, so that thread's CPU
 * time (and its allocated bytes) is the request's cost, without the socket, the kernel or the load generator.
 *
 * <p>Scenarios: {@code h1-plaintext}, {@code h1-json} and {@code h1-echo} (a 1 KiB {@code POST /echo}) as {@code
 * benchmarks/load.sh} sends them with wrk; {@code h1-echo-varied}, that echo with an {@code x-request-id} that differs
 * from one request to the next, as {@code echo-1k-varied.lua} sends it (the ids repeat after {@value #VARIED_IDS}
 * requests, made before the run, so the client side allocates nothing); {@code h2-plaintext}, one stream per request on one h2c connection
 * (prior knowledge), with h2load's own header blocks, as {@code benchmarks/h2.sh} does; {@code h2-streams}, the same with ten request
 * streams per read, as h2load's 64 x 10 run delivers them, whose responses leave in one flush. The Parry side serves the hello example's routes
 * ({@link HelloRoutes}); the baseline is {@code NettyBaselineServer}'s and {@code NettyHttp2BaselineServer}'s
 * handlers. Not thread-safe: one thread per connection.
 */
public final class SocketlessConnection implements AutoCloseable {
    /** The servers, in the order the harnesses name them. */
    public static final List<String> SERVERS = List.of("parry", "netty");
    /** Every scenario. */
    public static final List<String> SCENARIOS =
            List.of("h1-plaintext", "h1-json", "h1-echo", "h1-echo-varied", "h2-plaintext", "h2-streams");
    /** Request streams per read in {@code h2-streams}: h2load's 64 x 10 run keeps ten open per connection. */
    private static final int STREAMS_PER_READ = 10;
    /**
     * Distinct request ids of {@code h1-echo-varied}, sent in turn: few enough that their bytes stay in the CPU's
     * cache, as bytes just read from a socket are (with 4,096, each request's bytes came from memory, and the server
     * that copies the echoed body paid for that alone: 1.25 where this gives 1.13).
     */
    private static final int VARIED_IDS = 64;

    private static final byte[] ECHO_BODY = "0123456789abcdef".repeat(64).getBytes(StandardCharsets.US_ASCII);

    private final String name;
    private final EmbeddedChannel channel;
    private final byte[][] requests;
    private int nextRequest;
    private final Http2Requests http2;
    private final int requestsPerRead;

    private SocketlessConnection(
            String name, EmbeddedChannel channel, byte[][] requests, Http2Requests http2, int requestsPerRead) {
        this.name = name;
        this.channel = channel;
        this.requests = requests;
        this.http2 = http2;
        this.requestsPerRead = requestsPerRead;
    }

    /**
     * Opens a connection of {@code server} ({@code parry} or {@code netty}) for {@code scenario}; an h2 one has its
     * connection preface and settings exchanged.
     */
    public static SocketlessConnection open(String server, String scenario) {
        boolean h2 = scenario.startsWith("h2");
        EmbeddedChannel channel = new EmbeddedChannel();
        switch (server) {
            case "parry" -> channel.pipeline()
                    .addLast(ServerInitializer.detached(ServerOptions.ofDefault(), new HelloRoutes()));
            case "netty" -> {
                if (h2) {
                    channel.pipeline().addLast(Http2BaselineHandler.create());
                } else {
                    channel.pipeline()
                            .addLast(new HttpServerCodec())
                            .addLast(new HttpServerExpectContinueHandler())
                            .addLast(new BaselineHandler());
                }
            }
            default -> throw new IllegalArgumentException("server: " + server + " (expected: parry or netty)");
        }
        SocketlessConnection connection;
        if (h2) {
            int streams =
                    switch (scenario) {
                        case "h2-plaintext" -> 1;
                        case "h2-streams" -> STREAMS_PER_READ;
                        default -> throw new IllegalArgumentException(
                                "scenario: " + scenario + " (expected: one of " + SCENARIOS + ")");
                    };
            connection = new SocketlessConnection(server + " " + scenario, channel, null, new Http2Requests(), streams);
            channel.writeInbound(Unpooled.wrappedBuffer(Http2Requests.connectionStart()));
            connection.drainOutbound();
        } else {
            connection = new SocketlessConnection(server + " " + scenario, channel, http1Requests(scenario), null, 1);
        }
        return connection;
    }

    /** How many requests each {@link #request()} sends in its one read: 10 in {@code h2-streams}, else 1. */
    public int requestsPerRead() {
        return requestsPerRead;
    }

    /**
     * Serves one read's requests ({@link #requestsPerRead()}); returns the response bytes written.
     *
     * @throws IllegalStateException if the server wrote nothing
     */
    public int request() {
        byte[] bytes = http2 != null ? http2.next(requestsPerRead) : nextHttp1Request();
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        int written = drainOutbound();
        if (written == 0) {
            throw new IllegalStateException(name + " answered nothing");
        }
        return written;
    }

    /** Closes the channel and releases whatever it still holds. */
    @Override
    public void close() {
        channel.finishAndReleaseAll();
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

    private byte[] nextHttp1Request() {
        byte[] bytes = requests[nextRequest];
        nextRequest = (nextRequest + 1) % requests.length;
        return bytes;
    }

    private static byte[][] http1Requests(String scenario) {
        if (!scenario.equals("h1-echo-varied")) {
            return new byte[][] {http1Request(scenario, "")};
        }
        byte[][] requests = new byte[VARIED_IDS][];
        for (int i = 0; i < VARIED_IDS; i++) {
            requests[i] = http1Request("h1-echo", "x-request-id: " + (i + 1) + "\r\n");
        }
        return requests;
    }

    private static byte[] http1Request(String scenario, String extraField) {
        String host = "Host: 127.0.0.1:8080\r\n";
        String head =
                switch (scenario) {
                    case "h1-plaintext" -> "GET /plaintext HTTP/1.1\r\n" + host + "\r\n";
                    case "h1-json" -> "GET /json HTTP/1.1\r\n" + host + "\r\n";
                    case "h1-echo" -> "POST /echo HTTP/1.1\r\n" + host
                            + "Content-Length: 1024\r\nContent-Type: application/octet-stream\r\n" + extraField
                            + "\r\n";
                    default -> throw new IllegalArgumentException(
                            "scenario: " + scenario + " (expected: one of " + SCENARIOS + ")");
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
}

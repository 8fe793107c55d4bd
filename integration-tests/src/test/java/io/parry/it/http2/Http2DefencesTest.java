package io.parry.it.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2Headers;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.Http2Options;
import io.parry.server.Rejection;
import io.parry.server.Server;
import io.parry.testing.NettyLeakExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each known HTTP/2 attack ends the offending connection with GOAWAY and a counted reason, while a
 * connection opened before it keeps being served.
 */
@ExtendWith(NettyLeakExtension.class)
class Http2DefencesTest {
    private static final int ENHANCE_YOUR_CALM = 0xb;
    private static final byte[] BIG = new byte[256 * 1024];

    private final Handler handler = (ctx, request) -> switch (request.path()) {
        case "/never" -> new CompletableFuture<>();
        case "/big" -> HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(HttpData.wrap(BIG)))
                .toStage();
        default -> HttpResponse.ofText("fine").toStage();
    };
    private Server server;

    @AfterEach
    void stopServer() {
        server.stop(Duration.ZERO);
    }

    private void start(Consumer<Http2Options.Builder> http2) {
        Http2Options.Builder options = Http2Options.builder();
        http2.accept(options);
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(handler)
                .options(o -> o.http2(options.build()))
                .build()
                .start();
    }

    /** CVE-2023-44487: streams opened and reset at once, so the server works for nothing. */
    @Test
    void endsARapidResetConnection() {
        start(options -> options.maxResets(10, Duration.ofSeconds(30)));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port())) {
            attacker.atOnce(() -> {
                for (int stream = 1; stream <= 41; stream += 2) {
                    attacker.headers(stream, RawHttp2Connection.get("/never"), false);
                    attacker.rst(stream, 0x8);
                }
            });

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_RAPID_RESET)).isEqualTo(1);
    }

    /** CVE-2025-8671: frames that make the server reset the streams itself, which cost it as much. */
    @Test
    void endsAConnectionThatMakesTheServerResetStreams() {
        start(options -> options.maxResets(10, Duration.ofSeconds(30)));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port())) {
            attacker.atOnce(() -> {
                for (int stream = 1; stream <= 41; stream += 2) {
                    attacker.headers(stream, RawHttp2Connection.get("/never"), false);
                    attacker.windowUpdate(stream, 0); // A stream error: the server resets the stream.
                }
            });

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_CAUSED_RESETS)).isEqualTo(1);
    }

    /** The 2024 CONTINUATION flood: a header block that never ends, one small frame at a time. */
    @Test
    void endsAContinuationFlood() {
        start(options -> options.maxContinuationFrames(16));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port())) {
            attacker.atOnce(() -> {
                attacker.frame(RawHttp2Connection.HEADERS, 0, 1, attacker.encode(RawHttp2Connection.get("/")));
                for (int i = 0; i < 100; i++) {
                    attacker.frame(RawHttp2Connection.CONTINUATION, 0, 1, new byte[] {0});
                }
            });

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_CONTINUATION_FLOOD)).isEqualTo(1);
    }

    /**
     * An HPACK bomb: one large field in the dynamic table, then many one-byte references to it. The
     * first gets 431, as a client may misjudge the limit once; the second ends the connection.
     */
    @Test
    void endsAConnectionWhoseHeaderBlockDecodesFarPastTheLimit() {
        start(options -> options.maxHeaderListSize(16 * 1024));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port())) {
            Http2Headers bomb = RawHttp2Connection.get("/");
            String value = "x".repeat(4_000);
            for (int i = 0; i < 100; i++) {
                bomb.add("x-bomb", value);
            }
            byte[] block = attacker.encode(bomb);
            assertThat(block.length).isLessThan(16 * 1024); // Small on the wire, 400 KB decoded.

            int flags = RawHttp2Connection.END_HEADERS | RawHttp2Connection.END_STREAM;
            attacker.frame(RawHttp2Connection.HEADERS, flags, 1, block);
            assertThat(attacker.response(1).status()).isEqualTo(431);
            attacker.frame(RawHttp2Connection.HEADERS, flags, 3, attacker.encode(bomb));

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_HEADER_BOMB)).isEqualTo(1);
    }

    @Test
    void endsAPingFlood() {
        start(options -> options.maxControlFramesPerSecond(100));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port())) {
            attacker.atOnce(() -> {
                for (int i = 0; i < 500; i++) {
                    attacker.ping();
                }
            });

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_CONTROL_FLOOD)).isEqualTo(1);
    }

    @Test
    void endsASettingsFlood() {
        start(options -> options.maxControlFramesPerSecond(100));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port())) {
            attacker.atOnce(() -> {
                for (int i = 0; i < 500; i++) {
                    attacker.frame(RawHttp2Connection.SETTINGS, 0, 0, new byte[0]);
                }
            });

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_CONTROL_FLOOD)).isEqualTo(1);
    }

    @Test
    void endsAFloodOfEmptyDataFrames() {
        start(options -> options.maxEmptyDataFrames(10));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port())) {
            attacker.atOnce(() -> {
                attacker.headers(1, RawHttp2Connection.request("POST", "/never"), false);
                for (int i = 0; i < 50; i++) {
                    attacker.data(1, new byte[0], false);
                }
            });

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_EMPTY_FRAME_FLOOD)).isEqualTo(1);
    }

    /**
     * A client that opens large stream windows but never the connection's: the response waits on a
     * connection window of zero, holding memory, until the stall timeout frees it and the connection.
     */
    @Test
    void endsAConnectionWhoseWindowStaysClosed() {
        start(options -> options.stallTimeout(Duration.ofMillis(200)));
        try (RawHttp2Connection other = RawHttp2Connection.open(server.port());
                RawHttp2Connection attacker = RawHttp2Connection.open(server.port(), 0x4, 1 << 30)) {
            attacker.headers(1, RawHttp2Connection.get("/big"), true);

            assertThat(attacker.awaitGoAway()).isEqualTo(ENHANCE_YOUR_CALM);
            assertThat(attacker.isClosedByPeer()).isTrue();
            assertUntouched(other);
        }
        assertThat(server.rejections(Rejection.HTTP2_FLOW_CONTROL_STALL)).isEqualTo(1);
    }

    /** A stream whose window stays closed is reset and its queued data freed; its connection lives on. */
    @Test
    void resetsAStreamWhoseWindowStaysClosed() {
        start(options -> options.stallTimeout(Duration.ofMillis(200)));
        try (RawHttp2Connection attacker = RawHttp2Connection.open(server.port(), 0x4, 0)) {
            attacker.headers(1, RawHttp2Connection.get("/big"), true);

            assertThat(attacker.awaitReset(1)).isEqualTo(0x8); // CANCEL
            attacker.headers(3, RawHttp2Connection.get("/"), true);
            assertThat(attacker.await(frame -> frame.streamId() == 3).type()).isEqualTo(RawHttp2Connection.HEADERS);
        }
        assertThat(server.rejections(Rejection.HTTP2_FLOW_CONTROL_STALL)).isEqualTo(1);
    }

    private static void assertUntouched(RawHttp2Connection other) {
        other.headers(1, RawHttp2Connection.get("/"), true);
        assertThat(other.response(1).bodyText()).isEqualTo("fine");
    }
}

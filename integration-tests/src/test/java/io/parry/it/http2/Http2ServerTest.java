package io.parry.it.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.RequestLimits;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.RawConnection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** HTTP/2 by prior knowledge on the cleartext port: each stream drives the same exchange an HTTP/1.1 request does. */
@ExtendWith(NettyLeakExtension.class)
class Http2ServerTest {
    private final CompletableFuture<HttpResponse> later = new CompletableFuture<>();
    private final CopyOnWriteArrayList<RequestLog> logs = new CopyOnWriteArrayList<>();
    private final Handler handler = (ctx, request) -> switch (request.path()) {
        case "/hello" -> HttpResponse.ofText("protocol=" + ctx.protocol() + " host="
                        + request.headers().get("host") + " cookie="
                        + request.headers().get("cookie"))
                .toStage();
        case "/echo" -> HttpResponse.of(
                        HttpStatus.OK, HttpHeaders.of("content-type", "application/octet-stream"), request.body())
                .toStage();
        case "/aggregate" -> request.body()
                .aggregate(1 << 20)
                .thenApply(data -> HttpResponse.ofText(data.length() + " bytes"));
        case "/later" -> later;
        case "/never" -> new CompletableFuture<>();
        default -> HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
    };
    private final Server server = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(handler)
            .options(options -> options.limits(
                    RequestLimits.builder().maxBodySize(256 * 1024).build()))
            .listener(logs::add)
            .build()
            .start();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ZERO);
    }

    @Test
    void servesARequestWithTheHostFromAuthorityAndCookiesJoined() {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(
                    1, RawHttp2Connection.get("/hello").add("cookie", "a=1").add("cookie", "b=2"), true);

            RawHttp2Connection.Response response = connection.response(1);

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.head().get("content-type").toString()).startsWith("text/plain");
            assertThat(response.bodyText()).isEqualTo("protocol=HTTP/2.0 host=localhost cookie=a=1; b=2");
        }
    }

    @Test
    void streamsABodyWithItsTrailersBackOnTheSameStream() {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, RawHttp2Connection.request("POST", "/echo"), false);
            connection.data(1, "hello ", false);
            connection.data(1, "world", false);
            connection.headers(1, new io.netty.handler.codec.http2.DefaultHttp2Headers().add("x-checksum", "42"), true);

            RawHttp2Connection.Response response = connection.response(1);

            assertThat(response.bodyText()).isEqualTo("hello world");
            assertThat(response.trailers().get("x-checksum").toString()).isEqualTo("42");
        }
    }

    @Test
    void answersStreamsInTheOrderTheirHandlersFinish() {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, RawHttp2Connection.get("/later"), true);
            connection.headers(3, RawHttp2Connection.get("/hello"), true);

            assertThat(connection.response(3).status()).isEqualTo(200);
            later.complete(HttpResponse.ofText("late"));
            assertThat(connection.response(1).bodyText()).isEqualTo("late");
        }
    }

    @Test
    void answersABodyOverTheLimitWith413AndCountsIt() {
        long before = server.rejections(Rejection.CONTENT_TOO_LARGE);
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, RawHttp2Connection.request("POST", "/aggregate"), false);
            for (int i = 0; i < 20; i++) {
                connection.data(1, new byte[16 * 1024], false);
            }

            assertThat(connection.response(1).status()).isEqualTo(413);
        }
        assertThat(server.rejections(Rejection.CONTENT_TOO_LARGE)).isEqualTo(before + 1);
    }

    @Test
    void answersAHeaderListOverTheLimitWith431() {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(
                    1,
                    RawHttp2Connection.get("/hello")
                            .add("x-big", "a".repeat(15_000))
                            .add("x-more", "b".repeat(2_000)),
                    true);

            assertThat(connection.response(1).status()).isEqualTo(431);
            connection.headers(3, RawHttp2Connection.get("/hello"), true);
            assertThat(connection.response(3).status()).isEqualTo(200);
        }
    }

    /**
     * The handler never reads the body: the server gives none of the bytes it holds back to the
     * stream's window, so a client that ignores the window breaks flow control on that stream alone.
     */
    @Test
    void stopsTheWindowOfAStreamWhoseBodyIsNotReadAndNoOther() {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, RawHttp2Connection.request("POST", "/never"), false);
            for (int i = 0; i < 16; i++) {
                connection.data(1, new byte[16 * 1024], false);
            }

            assertThat(connection.awaitReset(1)).isEqualTo(0x3); // FLOW_CONTROL_ERROR
            connection.headers(3, RawHttp2Connection.get("/hello"), true);
            assertThat(connection.response(3).status()).isEqualTo(200);
        }
    }

    @Test
    void logsTheProtocolAsHttp2() throws Exception {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, RawHttp2Connection.get("/hello"), true);
            connection.response(1);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (logs.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(logs).singleElement().satisfies(log -> {
            assertThat(log.protocol()).isEqualTo("HTTP/2.0");
            assertThat(log.status()).isEqualTo(200);
            assertThat(log.path()).isEqualTo("/hello");
        });
    }

    @Test
    void servesHttp11OnTheSamePort() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("protocol=HTTP/1.1 host=a cookie=null");
        }
    }

    /** RFC 9113, section 6.8: GOAWAY first, the stream in flight finishes, then the connection closes. */
    @Test
    void stopsGracefullyWithGoAwayAfterTheOpenStreamFinishes() throws Exception {
        ExecutorService stopper = Executors.newSingleThreadExecutor();
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, RawHttp2Connection.get("/later"), true);
            connection.ping(); // Answered once the stream exists, so the server has the request before it stops.
            connection.await(frame -> frame.type() == RawHttp2Connection.PING);

            Future<?> stopped = stopper.submit(() -> server.stop(Duration.ofSeconds(10)));

            assertThat(connection.awaitGoAway()).isZero();
            later.complete(HttpResponse.ofText("finished"));
            assertThat(connection.response(1).bodyText()).isEqualTo("finished");
            assertThat(connection.isClosedByPeer()).isTrue();
            stopped.get(10, TimeUnit.SECONDS);
        } finally {
            stopper.shutdownNow();
        }
    }
}

package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.ServerExtension;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * gRPC through the proxy from an HTTP/1.1 client to a grpc-java server over h2c: messages, trailers
 * and statuses pass through, and what the proxy answers itself is a gRPC status, never a problem page.
 */
@ExtendWith(NettyLeakExtension.class)
class GrpcProxyTest {
    private static final Duration GATEWAY_DELAY = Duration.ofMillis(300);

    @RegisterExtension
    static final ServerExtension plain = ServerExtension.of((ctx, request) -> switch (request.path()) {
        case "/plain/stall" -> new CompletableFuture<>();
        case "/plain/timeout" -> HttpResponse.ofText(
                        String.valueOf(request.headers().get("grpc-timeout")))
                .toStage();
        default -> HttpResponse.ofText("overloaded")
                .withStatus(HttpStatus.SERVICE_UNAVAILABLE)
                .toStage();
    });

    private static volatile ProxyHandler grpcProxy;
    private static volatile ProxyHandler plainProxy;
    private static volatile ProxyHandler downProxy;

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of((ctx, request) -> {
        if (request.path().startsWith("/late/")) {
            // Time spent in the gateway before the proxy runs, as a slow filter would spend it.
            CompletableFuture<HttpResponse> late = new CompletableFuture<>();
            ctx.eventLoop()
                    .schedule(
                            () -> plainProxy
                                    .handle(
                                            ctx,
                                            request.withTarget(request.target().substring(5)))
                                    .whenComplete((response, failure) -> {
                                        if (failure != null) {
                                            late.completeExceptionally(failure);
                                        } else {
                                            late.complete(response);
                                        }
                                    }),
                            GATEWAY_DELAY.toMillis(),
                            TimeUnit.MILLISECONDS);
            return late;
        }
        if (request.path().startsWith("/plain/")) {
            return plainProxy.handle(ctx, request);
        }
        if (request.path().startsWith("/down/")) {
            return downProxy.handle(ctx, request);
        }
        return grpcProxy.handle(ctx, request);
    });

    private static Server grpc;
    private static HttpClient h2c;
    private static HttpClient http1;
    private static HttpClient downstream;

    @BeforeAll
    static void start() throws Exception {
        grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(GrpcEcho.service())
                .build()
                .start();
        h2c = HttpClient.builder()
                .options(ClientOptions.builder().protocol(ClientProtocol.H2C).build())
                .build();
        http1 = HttpClient.ofDefault();
        downstream = HttpClient.ofDefault();
        grpcProxy = ProxyHandler.builder(
                        GuardedUpstream.builder(Upstream.of("echo", Endpoint.of("127.0.0.1", grpc.getPort())))
                                .client(h2c)
                                .build())
                .build();
        plainProxy = ProxyHandler.builder(
                        GuardedUpstream.builder(Upstream.of("plain", Endpoint.of("127.0.0.1", plain.port())))
                                .client(http1)
                                .build())
                .timeouts(ClientTimeouts.builder().call(Duration.ofSeconds(30)).build())
                .build();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        downProxy = ProxyHandler.builder(
                        GuardedUpstream.builder(Upstream.of("down", Endpoint.of("127.0.0.1", closedPort)))
                                .client(http1)
                                .build())
                .build();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        downstream.close();
        h2c.close();
        http1.close();
        grpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void passesAUnaryCallAndItsTrailersThroughToAnHttp2Upstream() {
        HttpResponse response = call("/test.Echo/Unary", "hi", null);

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(response.headers().get("content-type")).isEqualTo("application/grpc");
        assertThat(message(response)).isEqualTo("echo hi");
        assertThat(response.body().trailers().toCompletableFuture().join().get("grpc-status"))
                .isEqualTo("0");
    }

    @Test
    void passesTheUpstreamsOwnStatusThrough() {
        HttpResponse response = call("/test.Echo/Fail", "hi", null);

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(grpcStatus(response)).isEqualTo("5");
        assertThat(response.headers().get("grpc-message")).isEqualTo("no such thing");
    }

    @Test
    void endsACallPastItsGrpcTimeoutWithDeadlineExceeded() {
        HttpResponse response = call("/test.Echo/Slow", "hi", "200m");

        assertThat(grpcStatus(response)).isEqualTo("4");
    }

    @Test
    void forwardsGrpcTimeoutShortenedByTheTimeSpentInTheGateway() {
        HttpResponse response = call("/late/plain/timeout", "hi", "2S");

        Duration forwarded = GrpcCalls.deadline(
                response.body().aggregate(64).toCompletableFuture().join().toStringUtf8());
        assertThat(forwarded)
                .isPositive()
                .isLessThanOrEqualTo(Duration.ofSeconds(2).minus(GATEWAY_DELAY));
    }

    @Test
    void answersDeadlineExceededWhenTheDeadlinePassesBeforeTheUpstreamIsCalled() {
        HttpResponse response = call("/late/plain/timeout", "hi", "100m");

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(grpcStatus(response)).isEqualTo("4");
    }

    @Test
    void answersDeadlineExceededWhenItsOwnDeadlineExpires() {
        HttpResponse response = call("/plain/stall", "hi", "200m");

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(grpcStatus(response)).isEqualTo("4");
        assertThat(response.headers().get("content-type")).isEqualTo("application/grpc");
    }

    @Test
    void answersUnavailableWhenNoUpstreamCanBeReached() {
        HttpResponse response = call("/down/test.Echo/Unary", "hi", null);

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(grpcStatus(response)).isEqualTo("14");
        assertThat(response.body().aggregate(1024).toCompletableFuture().join().length())
                .isZero();
    }

    @Test
    void turnsAnErrorStatusWithoutGrpcStatusIntoUnavailable() {
        HttpResponse response = call("/plain/overloaded", "hi", null);

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(grpcStatus(response)).isEqualTo("14");
        assertThat(response.headers().get("grpc-message")).contains("503");
    }

    private static HttpResponse call(String path, String message, String timeout) {
        HttpHeaders.Builder headers =
                HttpHeaders.builder().add("content-type", "application/grpc").add("te", "trailers");
        if (timeout != null) {
            headers.add("grpc-timeout", timeout);
        }
        HttpRequest request = HttpRequest.of(HttpMethod.POST, path)
                .withHeaders(headers.build())
                .withBody(HttpBody.of(HttpData.wrap(frame(message))));
        return downstream
                .send(Endpoint.of("127.0.0.1", gateway.port()), request)
                .toCompletableFuture()
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }

    /** A gRPC length-prefixed message: not compressed, 4-byte length, the bytes. */
    private static byte[] frame(String message) {
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(5 + bytes.length)
                .put((byte) 0)
                .putInt(bytes.length)
                .put(bytes)
                .array();
    }

    private static String message(HttpResponse response) {
        byte[] body =
                response.body().aggregate(1 << 16).toCompletableFuture().join().toByteArray();
        int length = ByteBuffer.wrap(body, 1, 4).getInt();
        return new String(body, 5, length, StandardCharsets.UTF_8);
    }

    /** The status of a trailers-only response, or else of its trailers. */
    private static String grpcStatus(HttpResponse response) {
        String status = response.headers().get("grpc-status");
        if (status != null) {
            return status;
        }
        response.body().aggregate(1 << 16).toCompletableFuture().join();
        return response.body().trailers().toCompletableFuture().join().get("grpc-status");
    }
}

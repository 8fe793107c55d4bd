package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.ServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The proxy adds itself to {@code Via} over HTTP/2 as over HTTP/1.1, with the version each message was received
 * with: {@code 2} (RFC 9110, section 7.6.3; RFC 9113, section 3).
 */
@ExtendWith(NettyLeakExtension.class)
class Http2ViaTest {
    private static final HttpClient H2C = HttpClient.builder()
            .options(ClientOptions.builder().protocol(ClientProtocol.H2C).build())
            .build();

    /** Answers with the Via the request arrived with. */
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) ->
            HttpResponse.ofText(String.valueOf(request.headers().get("via"))).toStage());

    private static volatile ProxyHandler h2cProxy;

    @RegisterExtension
    static final ServerExtension proxy = ServerExtension.of((ctx, request) -> h2cProxy.handle(ctx, request));

    @BeforeAll
    static void proxyToTheUpstream() {
        h2cProxy = ProxyHandler.builder(
                        GuardedUpstream.builder(Upstream.of("h2c", Endpoint.of("127.0.0.1", upstream.port())))
                                .client(H2C)
                                .build())
                .build();
    }

    @AfterAll
    static void close() {
        H2C.close();
    }

    @Test
    void addsItselfToViaWithVersionTwoForRequestsAndResponsesReceivedOverHttp2() {
        HttpResponse response = H2C.send(Endpoint.of("127.0.0.1", proxy.port()), HttpRequest.of(HttpMethod.GET, "/"))
                .toCompletableFuture()
                .orTimeout(10, TimeUnit.SECONDS)
                .join();

        assertThat(response.body().aggregate(1024).toCompletableFuture().join().toStringUtf8())
                .isEqualTo("2 parry");
        assertThat(response.headers().get("via")).isEqualTo("2 parry");
    }
}

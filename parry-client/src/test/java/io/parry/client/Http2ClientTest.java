package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.testing.NettyLeakExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakExtension.class)
class Http2ClientTest {
    private final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder()
                    .eventLoopThreads(1)
                    .protocol(ClientProtocol.H2C)
                    .build())
            .build();
    private TestUpstream upstream;

    @AfterEach
    void close() {
        client.close();
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void sendsRequestsWithPriorKnowledgeAndReadsBodyAndTrailers() throws Exception {
        upstream = TestUpstream.cleartext(100);
        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.POST, "/echo?x=1")
                .withHeaders(io.parry.http.HttpHeaders.of("Connection", "keep-alive", "TE", "trailers", "X-Name", "v"))
                .withBody(HttpBody.ofUtf8("+body"))));

        assertThat(response.status().code()).isEqualTo(200);
        assertThat(text(response)).isEqualTo("connection 1+body");
        assertThat(await(response.body().trailers()).get("grpc-status")).isEqualTo("0");
        var request = upstream.requests.get(0);
        assertThat(request.path().toString()).isEqualTo("/echo?x=1");
        assertThat(request.authority().toString()).isEqualTo("127.0.0.1:" + upstream.port());
        assertThat(request.get("te").toString()).isEqualTo("trailers");
        assertThat(request.get("x-name").toString()).isEqualTo("v");
        assertThat(request.contains("connection")).isFalse();
    }

    @Test
    void multiplexesCallsUpToThePeersStreamLimitThenOpensAnotherConnection() throws Exception {
        upstream = TestUpstream.cleartext(2);
        upstream.holding = new CountDownLatch(3);
        List<CompletionStage<HttpResponse>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/hold")));
        }
        assertThat(upstream.holding.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        upstream.release();
        for (CompletionStage<HttpResponse> call : calls) {
            text(await(call));
        }

        assertThat(upstream.connections()).isEqualTo(2);
        assertThat(upstream.streamConnections).containsExactlyInAnyOrder(1, 1, 2);
        HttpResponse again = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")));
        assertThat(text(again)).startsWith("connection ");
        assertThat(upstream.connections()).isEqualTo(2);
    }

    @Test
    void sendsStreamsAboveGoAwaysLastStreamIdAgainOnAnotherConnection() throws Exception {
        upstream = TestUpstream.cleartext(100);

        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.POST, "/goaway")
                .withBody(HttpBody.ofUtf8("!"))));

        assertThat(text(response)).isEqualTo("connection 2!");
        assertThat(upstream.connections()).isEqualTo(2);
    }

    @Test
    void failsTheCallOfAResetStreamAndKeepsTheConnection() throws Exception {
        upstream = TestUpstream.cleartext(100);

        Throwable failure = failure(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/reset")));

        assertThat(failure).isInstanceOf(ConnectionClosedException.class).hasMessageContaining("INTERNAL_ERROR");
        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/"))))).isEqualTo("connection 1");
        assertThat(upstream.connections()).isEqualTo(1);
    }

    private Endpoint endpoint() {
        return Endpoint.of("127.0.0.1", upstream.port());
    }
}

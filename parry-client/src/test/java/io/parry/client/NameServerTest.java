package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Endpoint names resolved through the name servers the options give. */
class NameServerTest {
    private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(300);
    private static final HttpRequest GET = HttpRequest.of(HttpMethod.GET, "/");

    private static HttpClient client(LoopbackNameServer nameServer, Duration connectTimeout) {
        return HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .nameServers(List.of(nameServer.address()))
                        .timeouts(
                                ClientTimeouts.builder().connect(connectTimeout).build())
                        .build())
                .build();
    }

    @Test
    void resolvesTheEndpointNameThroughTheGivenNameServer() throws Exception {
        try (LoopbackNameServer nameServer = LoopbackNameServer.answering();
                RawUpstream upstream = RawUpstream.start(connection -> {
                    UpstreamConnection.RawRequest request;
                    while ((request = connection.readRequest()) != null) {
                        String host = request.header("host");
                        connection.send("HTTP/1.1 200 OK\nContent-Length: " + host.length() + "\n\n" + host);
                    }
                })) {
            // The connect timeout includes the name's resolution: time enough for both on a loaded machine.
            HttpClient client = client(nameServer, Duration.ofSeconds(10));
            try {
                Endpoint endpoint = Endpoint.of("upstream.parry.test", upstream.port());

                assertThat(text(await(client.send(endpoint, GET)))).isEqualTo("upstream.parry.test:" + upstream.port());
                assertThat(nameServer.queries()).isPositive();
            } finally {
                client.close();
            }
        }
    }

    @Test
    void failsWithConnectTimeoutWhenTheNameServerDoesNotAnswer() throws Exception {
        try (LoopbackNameServer nameServer = LoopbackNameServer.silent()) {
            HttpClient client = client(nameServer, CONNECT_TIMEOUT);
            try {
                Endpoint endpoint = Endpoint.of("upstream.parry.test", 80);

                long start = System.nanoTime();
                Throwable failure = failure(client.send(endpoint, GET));
                Duration took = Duration.ofNanos(System.nanoTime() - start);

                assertThat(failure).isInstanceOf(ConnectTimeoutException.class);
                assertThat(((ClientException) failure).requestSent()).isFalse();
                assertThat(nameServer.queries()).isPositive();
                // The resolver's own query timeout is 5 s; the call ends at the connect timeout.
                assertThat(took)
                        .isGreaterThanOrEqualTo(CONNECT_TIMEOUT.minusMillis(10))
                        .isLessThan(Duration.ofSeconds(3));
                assertThat(client.poolStats(endpoint)).matches(PoolStats::isEmpty);
            } finally {
                client.close();
            }
        }
    }
}

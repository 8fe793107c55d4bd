package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class NameResolutionTest {
    private static final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();

    @AfterAll
    static void closeClient() {
        client.close();
    }

    /** Answers each request with its {@code Host} field. */
    private static RawUpstream echoingHost(InetAddress address) {
        return RawUpstream.start(address, connection -> {
            UpstreamConnection.RawRequest request;
            while ((request = connection.readRequest()) != null) {
                String host = request.header("host");
                connection.send("HTTP/1.1 200 OK\nContent-Length: " + host.length() + "\n\n" + host);
            }
        });
    }

    @Test
    void connectsToAnIpv6LiteralAndNamesItInBracketsInTheHostField() throws Exception {
        InetAddress loopback6 = InetAddress.getByName("::1");
        Assumptions.assumeTrue(canListenOn(loopback6), "IPv6 loopback is not available");
        try (RawUpstream upstream = echoingHost(loopback6)) {
            Endpoint endpoint = Endpoint.parse("[::1]:" + upstream.port());

            String host = text(await(client.send(endpoint, HttpRequest.of(HttpMethod.GET, "/"))));

            assertThat(host).isEqualTo("[::1]:" + upstream.port());
            assertThat(client.poolStats(endpoint)).isEqualTo(new PoolStats(0, 1, 0));
        }
    }

    private static boolean canListenOn(InetAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(address, 0));
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}

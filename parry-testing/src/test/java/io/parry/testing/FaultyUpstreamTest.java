package io.parry.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

@Timeout(10)
class FaultyUpstreamTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final String GET = "GET / HTTP/1.1\r\nHost: upstream\r\n\r\n";

    // Shared by the class: the counter assertions below also check that it is reset before each test.
    @RegisterExtension
    static final FaultyUpstream upstream = FaultyUpstream.start();

    @Test
    void answersKeepAliveRequestsWithTheConfiguredResponse() {
        upstream.respond(201, "created");

        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            RawResponse first = connection
                    .send(
                            """
                            GET /first HTTP/1.1
                            Host: upstream

                            """)
                    .readResponse();
            RawResponse second = connection
                    .send(
                            """
                            GET /second HTTP/1.1
                            Host: upstream
                            X-Trace: 2

                            """)
                    .readResponse();

            assertThat(first.status()).isEqualTo(201);
            assertThat(first.bodyText()).isEqualTo("created");
            assertThat(first.header("content-length")).isEqualTo("7");
            assertThat(first.header("connection")).isNull();
            assertThat(second.bodyText()).isEqualTo("created");
        }
        assertThat(upstream.acceptedConnections()).isEqualTo(1);
        assertThat(upstream.requests()).isEqualTo(2);
        assertThat(upstream.lastRequestHead())
                .isEqualTo("GET /second HTTP/1.1\r\nHost: upstream\r\nX-Trace: 2\r\n\r\n");
        assertThat(upstream.endpointAddress()).isEqualTo("127.0.0.1:" + upstream.port());
        assertThat(upstream.uri("/a")).hasToString("http://127.0.0.1:" + upstream.port() + "/a");
    }

    @Test
    void readsContentLengthAndChunkedBodiesBeforeAnswering() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            connection.send(
                    """
                    POST / HTTP/1.1
                    Host: upstream
                    Content-Length: 5

                    hello""");
            assertThat(connection.readResponse().status()).isEqualTo(200);
            assertThat(upstream.lastRequestBodyLength()).isEqualTo(5);

            connection.send(
                    """
                    POST / HTTP/1.1
                    Host: upstream
                    Transfer-Encoding: chunked

                    5;ext=1
                    hello
                    6
                     world
                    0
                    Trailer-Field: x

                    """);
            assertThat(connection.readResponse().status()).isEqualTo(200);
            assertThat(upstream.lastRequestBodyLength()).isEqualTo(11);

            assertThat(connection.send(GET).readResponse().bodyText()).isEqualTo("ok");
        }
        assertThat(upstream.requests()).isEqualTo(3);
        assertThat(upstream.acceptedConnections()).isEqualTo(1);
    }

    @Test
    void answersPipelinedRequestsInOrder() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            connection.send(
                    """
                    GET /1 HTTP/1.1
                    Host: upstream

                    GET /2 HTTP/1.1
                    Host: upstream

                    """);

            assertThat(connection.readResponse().bodyText()).isEqualTo("ok");
            assertThat(connection.readResponse().bodyText()).isEqualTo("ok");
        }
        assertThat(upstream.requests()).isEqualTo(2);
        assertThat(upstream.lastRequestHead()).startsWith("GET /2 ");
    }

    @Test
    void answersHeadWithoutABody() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            RawResponse head = connection
                    .send(
                            """
                            HEAD / HTTP/1.1
                            Host: upstream

                            """)
                    .readResponseHead();
            RawResponse get = connection.send(GET).readResponse();

            assertThat(head.header("content-length")).isEqualTo("2");
            assertThat(get.bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void closesTheConnectionWhenTheRequestAsksTo() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            RawResponse response = connection
                    .send(
                            """
                            GET / HTTP/1.1
                            Host: upstream
                            Connection: close

                            """)
                    .readResponse();

            assertThat(response.header("connection")).isEqualTo("close");
            assertThat(connection.isClosedByPeer()).isTrue();
        }
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            connection.send("GET / HTTP/1.0\n\n");

            assertThat(connection.readUntilClose())
                    .startsWith("HTTP/1.1 200 OK\r\n")
                    .endsWith("\r\n\r\nok");
        }
    }

    @Test
    void answersTheFirstRequestsWithTheFaultThenRecovers() throws Exception {
        upstream.faultFirst(2, Fault.status(503));
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<Integer> statuses = new ArrayList<>();

        for (int i = 0; i < 4; i++) {
            statuses.add(client.send(HttpRequest.newBuilder(upstream.uri("/")).build(), BodyHandlers.ofString())
                    .statusCode());
        }

        assertThat(statuses).containsExactly(503, 503, 200, 200);
        assertThat(upstream.acceptedConnections()).isEqualTo(1);
    }

    @Test
    void choosesTheFaultWhenEachRequestArrives() {
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            upstream.fault(Fault.status(500));
            RawResponse failed = connection.send(GET).readResponse();
            upstream.fault(Fault.none());
            RawResponse healthy = connection.send(GET).readResponse();

            assertThat(failed.status()).isEqualTo(500);
            assertThat(failed.body()).isEmpty();
            assertThat(healthy.status()).isEqualTo(200);
        }
    }

    @Test
    void waitsBeforeSendingTheFirstByte() throws IOException {
        upstream.fault(Fault.slowFirstByte(Duration.ofMillis(300)));

        try (Socket socket = connect(upstream.port())) {
            long sent = System.nanoTime();
            send(socket, GET);
            socket.setSoTimeout(100);
            assertThatThrownBy(() -> socket.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            socket.setSoTimeout(5_000);

            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 200 OK\r\n");
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(socket.getInputStream().readNBytes(2))
                    .asString(ISO_8859_1)
                    .isEqualTo("ok");
        }
    }

    @Test
    void pausesInTheMiddleOfTheBody() throws IOException {
        upstream.respond(200, "0123456789");
        upstream.fault(Fault.slowBody(Duration.ofMillis(300)));

        try (Socket socket = connect(upstream.port())) {
            send(socket, GET);
            InputStream in = socket.getInputStream();

            assertThat(readHead(in)).contains("Content-Length: 10\r\n");
            assertThat(in.readNBytes(5)).asString(ISO_8859_1).isEqualTo("01234");
            socket.setSoTimeout(100);
            assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
            socket.setSoTimeout(5_000);
            assertThat(in.readNBytes(5)).asString(ISO_8859_1).isEqualTo("56789");
        }
    }

    @Test
    void resetsTheConnectionInTheMiddleOfTheBody() throws IOException {
        upstream.respond(200, "0123456789");
        upstream.fault(Fault.resetMidBody());

        try (Socket socket = connect(upstream.port())) {
            send(socket, GET);
            InputStream in = socket.getInputStream();
            assertThat(readHead(in)).contains("Content-Length: 10\r\n");
            ByteArrayOutputStream body = new ByteArrayOutputStream();

            assertThatThrownBy(() -> in.transferTo(body))
                    .isInstanceOf(SocketException.class)
                    .hasMessageContaining("Connection reset");
            assertThat(body.toString(ISO_8859_1)).isEqualTo("01234");
        }
    }

    @Test
    void closesTheConnectionInTheMiddleOfTheBody() throws IOException {
        upstream.respond(200, "0123456789");
        upstream.fault(Fault.closeMidBody());

        try (Socket socket = connect(upstream.port())) {
            send(socket, GET);
            InputStream in = socket.getInputStream();

            assertThat(readHead(in)).contains("Content-Length: 10\r\n");
            assertThat(in.readAllBytes()).asString(ISO_8859_1).isEqualTo("01234");
        }
    }

    @Test
    void answersWithBytesThatAreNotHttp() {
        upstream.fault(Fault.garbage());
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            assertThat(connection.send(GET).readUntilClose()).isNotEmpty().doesNotStartWith("HTTP/");
        }
        assertThatThrownBy(() ->
                        client.send(HttpRequest.newBuilder(upstream.uri("/")).build(), BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void closesAfterReadingTheRequestWithoutAnswering() {
        upstream.fault(Fault.closeBeforeResponse());

        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            assertThat(connection.send(GET).readUntilClose()).isEmpty();
        }
        assertThat(upstream.requests()).isEqualTo(1);
    }

    @Test
    void closesAnIdleConnectionRightAfterAFullResponse() {
        upstream.fault(Fault.closeAfterResponse());

        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            RawResponse response = connection.send(GET).readResponse();

            assertThat(response.bodyText()).isEqualTo("ok");
            assertThat(response.header("connection")).isNull();
            assertThat(connection.readUntilClose()).isEmpty();
        }
        upstream.awaitOpenConnections(0, WAIT);
    }

    @Test
    void refusesConnectionsUntilToldToAcceptAgain() {
        try (FaultyUpstream own = FaultyUpstream.start();
                RawConnection idle = RawConnection.open("127.0.0.1", own.port())) {
            own.awaitOpenConnections(1, WAIT);

            own.refuseConnections();

            assertThat(idle.readUntilClose()).isEmpty();
            assertThatThrownBy(() -> connect(own.port())).isInstanceOf(ConnectException.class);

            own.acceptConnections();

            try (RawConnection connection = RawConnection.open("127.0.0.1", own.port())) {
                assertThat(connection.send(GET).readResponse().bodyText()).isEqualTo("ok");
            }
            assertThat(own.acceptedConnections()).isEqualTo(2);
        }
    }

    @Test
    void offersAPortThatRefusesConnections() {
        assertThatThrownBy(() -> connect(FaultyUpstream.refusedPort())).isInstanceOf(ConnectException.class);
    }

    @Test
    void closeEndsPendingFaultsConnectionsAndTheListener() throws IOException {
        FaultyUpstream own = FaultyUpstream.start();
        own.fault(Fault.slowFirstByte(Duration.ofHours(1)));
        try (Socket socket = connect(own.port())) {
            send(socket, GET);
            own.awaitRequests(1, WAIT);

            own.close();

            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(own.openConnections()).isZero();
            assertThatThrownBy(() -> connect(own.port())).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void resetReturnsToTheDefaults() {
        upstream.respond(500, "broken");
        upstream.fault(Fault.garbage());
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            connection.send(GET).readUntilClose();
        }
        upstream.refuseConnections();

        upstream.reset();

        assertThat(upstream.requests()).isZero();
        assertThat(upstream.acceptedConnections()).isZero();
        assertThat(upstream.lastRequestHead()).isEmpty();
        try (RawConnection connection = RawConnection.open("127.0.0.1", upstream.port())) {
            RawResponse response = connection.send(GET).readResponse();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void awaitingFailsWhenTooFewRequestsArrive() {
        assertThatThrownBy(() -> upstream.awaitRequests(1, Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected 1 requests, got 0");
    }

    @Test
    void rejectsInvalidSettings() {
        assertThatThrownBy(() -> upstream.respond(99, ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("status: 99 (expected: 200 to 599)");
        assertThatThrownBy(() -> upstream.respond(204, "body"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("body: 4 characters (expected: empty for status 204)");
        assertThatThrownBy(() -> Fault.status(600))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("status: 600 (expected: 200 to 599)");
        assertThatThrownBy(() -> Fault.slowBody(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delay: PT-1S (expected: >= 0)");
        assertThatThrownBy(() -> upstream.faultFirst(0, Fault.none()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requests: 0 (expected: > 0)");
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(5_000);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(ISO_8859_1));
    }

    /** Reads up to and including the empty line that ends a response head. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed within the head: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }
}

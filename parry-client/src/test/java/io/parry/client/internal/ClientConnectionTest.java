package io.parry.client.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.ConnectionClosedException;
import io.parry.client.Endpoint;
import io.parry.client.InvalidResponseException;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.transport.TransportKind;
import io.parry.transport.spi.ReceivedFields;
import io.parry.transport.spi.Transport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client's HTTP/1.1 connection on a channel with no socket: response bytes in, request bytes out. */
class ClientConnectionTest {
    private static final Endpoint ENDPOINT = Endpoint.of("127.0.0.1", 8080);

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final LoopPools loop = new LoopPools(
            channel.eventLoop(),
            Transport.resolve(TransportKind.NIO),
            ClientOptions.ofDefault(),
            new ClientTls(ClientOptions.ofDefault()));
    private final ConnectionPool pool = new ConnectionPool(loop, ENDPOINT);
    private final ResponseDecoder decoder = new ResponseDecoder(new HttpDecoderConfig()
            .setValidateHeaders(false)
            .setHeadersFactory(ReceivedFields.FACTORY)
            .setAllowDuplicateContentLengths(false));
    private final ClientConnection connection = new ClientConnection(pool, decoder);

    ClientConnectionTest() {
        channel.pipeline().addLast("decoder", decoder);
        channel.pipeline().addLast("connection", connection);
    }

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    @Test
    void writesTheRequestAndCompletesTheCallWithTheResponse() {
        ClientCall call = start(get("/a"));

        assertThat(written()).startsWith("GET /a HTTP/1.1\r\n").containsIgnoringCase("host: 127.0.0.1:8080\r\n");
        receive("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");

        assertThat(bodyOf(call)).isEqualTo("hello");
    }

    @Test
    void goesBackToThePoolAfterAKeepAliveResponseAndCarriesTheNextCall() {
        ClientCall first = start(get("/a"));
        written();
        receive("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst");
        assertThat(bodyOf(first)).isEqualTo("first");
        assertThat(connection.poolState).isEqualTo(ClientConnection.IDLE);

        ClientCall second = call(get("/b"));
        pool.acquire(second);

        assertThat(second.connection).isSameAs(connection);
        assertThat(written()).startsWith("GET /b HTTP/1.1\r\n");
        receive("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond");
        assertThat(bodyOf(second)).isEqualTo("second");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void closesAfterAResponseThatSaysClose() {
        ClientCall call = start(get("/a"));
        written();

        receive("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");

        assertThat(bodyOf(call)).isEqualTo("hello");
        assertThat(connection.poolState).isEqualTo(ClientConnection.CLOSED);
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void failsTheBodyOfAResponseCutShortByTheClose() {
        ClientCall call = start(get("/a"));
        written();

        receive("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello");
        HttpResponse response = call.join();
        CompletableFuture<HttpData> body = response.body().aggregate(1024).toCompletableFuture();
        assertThat(body).isNotDone();
        channel.close();

        assertThat(body)
                .failsWithin(Duration.ZERO)
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(ConnectionClosedException.class);
    }

    @Test
    void failsTheCallWhenTheConnectionClosesBeforeTheHead() {
        ClientCall call = start(get("/a"));
        written();

        channel.close();

        assertThat(call).isCompletedExceptionally();
        assertThat(call.handle((response, failure) -> failure).join()).isInstanceOf(ConnectionClosedException.class);
    }

    @Test
    void givesAResponseSpeltAsTheLastOneOnItsConnectionThatOnesHeaders() {
        HttpResponse first = exchange("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nfirst");
        HttpResponse second = exchange("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nagain");

        assertThat(second.headers()).isSameAs(first.headers());
    }

    @Test
    void checksTheFieldsOfAResponseThatDifferFromTheLastOnes() {
        HttpResponse first = exchange("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nfirst");
        HttpResponse second =
                exchange("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nsecond");
        ClientCall third = next(get("/c"));
        written();

        receive("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nX-Bad: a\u0001b\r\n\r\nthird");

        assertThat(second.headers()).isEqualTo(HttpHeaders.of("Content-Type", "text/plain", "Content-Length", "6"));
        assertThat(second.headers().get("content-type"))
                .isSameAs(first.headers().get("content-type"));
        assertThat(third.handle((response, failure) -> failure).join())
                .isInstanceOf(InvalidResponseException.class)
                .hasMessageContaining("an invalid header field");
    }

    /** A GET answered with these bytes on this connection, its body read. */
    private HttpResponse exchange(String response) {
        ClientCall call = next(get("/"));
        written();
        receive(response);
        bodyOf(call);
        return call.join();
    }

    private static HttpRequest get(String path) {
        return HttpRequest.builder(HttpMethod.GET, path).build();
    }

    private ClientCall call(HttpRequest request) {
        return new ClientCall(loop, ENDPOINT.toString(), ENDPOINT, request, ClientTimeouts.ofDefault(), null, null);
    }

    /** Puts a call on the connection as the pool does when it assigns a connection it opened. */
    private ClientCall start(HttpRequest request) {
        ClientCall call = call(request);
        call.pool = pool;
        call.state = ClientCall.ACTIVE;
        call.connection = connection;
        connection.poolState = ClientConnection.BUSY;
        connection.start(call);
        return call;
    }

    /** Puts a call on the connection: the first as {@link #start} does, the next through the pool. */
    private ClientCall next(HttpRequest request) {
        if (connection.poolState != ClientConnection.IDLE) {
            return start(request);
        }
        ClientCall call = call(request);
        pool.acquire(call);
        return call;
    }

    private void receive(String bytes) {
        channel.writeInbound(Unpooled.copiedBuffer(bytes, US_ASCII));
    }

    private static String bodyOf(ClientCall call) {
        try {
            HttpData data =
                    call.join().body().aggregate(1024).toCompletableFuture().join();
            return new String(data.toByteArray(), US_ASCII);
        } catch (CompletionException e) {
            throw new AssertionError("the call failed", e);
        }
    }

    /** Everything written so far, as text; each message released. */
    private String written() {
        StringBuilder text = new StringBuilder();
        Object message;
        while ((message = channel.readOutbound()) != null) {
            ByteBuf buffer = (ByteBuf) message;
            try {
                text.append(buffer.toString(US_ASCII));
            } finally {
                buffer.release();
            }
        }
        return text.toString();
    }
}

package io.parry.it.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.parry.http.HttpResponse;
import io.parry.server.Server;
import io.parry.testing.NettyLeakExtension;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The field rules of RFC 9113, section 8.2.1 that the server takes from Netty's HPACK decoder instead
 * of checking each field again as Parry's headers are made: a header block breaking one never reaches
 * a handler, and its stream is reset with PROTOCOL_ERROR (section 8.1.1).
 */
@ExtendWith(NettyLeakExtension.class)
class Http2FieldRulesTest {
    private final AtomicInteger handled = new AtomicInteger();
    private final Server server = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler((ctx, request) -> {
                handled.incrementAndGet();
                return HttpResponse.ofText(request.headers().toString()).toStage();
            })
            .build()
            .start();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ZERO);
    }

    static Stream<Arguments> fieldsBreakingTheRules() {
        return Stream.of(
                Arguments.of("upper-case name", "X-Field", "v"),
                Arguments.of("space in name", "x field", "v"),
                Arguments.of("non-token name", "x@field", "v"),
                Arguments.of("empty name", "", "v"),
                Arguments.of("NUL in value", "x-field", "a\u0000b"),
                Arguments.of("CR in value", "x-field", "a\rb"),
                Arguments.of("LF in value", "x-field", "a\nb"),
                Arguments.of("control character in value", "x-field", "a\u0001b"),
                Arguments.of("DEL in value", "x-field", "a\u007fb"),
                Arguments.of("leading space in value", "x-field", " v"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fieldsBreakingTheRules")
    void resetsAStreamWhoseFieldBreaksRfc9113BeforeAnyHandlerSeesIt(String rule, String name, String value) {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, request().add(name, value), true);

            assertThat(connection.awaitReset(1)).as(rule).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
            connection.headers(3, request(), true);
            assertThat(connection.response(3).status()).isEqualTo(200);
        }
        assertThat(handled).as(rule).hasValue(1);
    }

    @Test
    void passesAValidBlockOnWithItsFieldsAsSent() {
        try (RawHttp2Connection connection = RawHttp2Connection.open(server.port())) {
            connection.headers(1, request().add("x-field", "a\tb c").add("content-length", "0"), true);

            RawHttp2Connection.Response response = connection.response(1);

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("[x-field: a\tb c, content-length: 0, host: localhost]");
        }
    }

    /** A GET whose fields the client does not check, so that it can send what a server must refuse. */
    private static Http2Headers request() {
        return new DefaultHttp2Headers(false)
                .method("GET")
                .scheme("http")
                .path("/")
                .authority("localhost");
    }
}

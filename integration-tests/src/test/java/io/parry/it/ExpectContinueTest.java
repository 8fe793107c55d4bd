package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Rejection;
import io.parry.server.RequestLimits;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ExpectContinueTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            Handlers.describing(),
            options -> options.limits(RequestLimits.builder().maxBodySize(100).build()));

    @Test
    void sendsContinueWhenTheHandlerReadsTheBody() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /aggregate HTTP/1.1\nHost: a\nContent-Length: 5\nExpect: 100-continue\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(100);

            connection.sendExactly("hello");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("got 5 bytes");
            assertThat(response.header("connection")).isNull();
        }
    }

    @Test
    void sendsContinueBeforeTheHeadOfAResponseThatStreamsTheBodyBack() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /echo HTTP/1.1\nHost: a\nContent-Length: 5\nExpect: 100-continue\n\n");
            assertThat(connection.readResponseHead().status()).isEqualTo(100);

            connection.sendExactly("hello");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("hello");
            assertThat(response.header("connection")).isNull();

            connection.send("GET /second HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/second method=GET");
        }
    }

    @Test
    void sendsContinueForAChunkedBodyStreamedBack() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /echo HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nExpect: 100-continue\n\n");
            assertThat(connection.readResponseHead().status()).isEqualTo(100);

            connection.send("5\nhello\n0\n\n");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("hello");

            connection.send("GET /second HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
    }

    @Test
    void sendsContinueForAPipelinedRequestOnlyAfterTheResponseBeforeIt() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /delay?ms=100 HTTP/1.1\nHost: a\n\n"
                    + "POST /echo HTTP/1.1\nHost: a\nContent-Length: 2\nExpect: 100-continue\n\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("delayed 100");
            assertThat(connection.readResponseHead().status()).isEqualTo(100);

            connection.sendExactly("hi");
            assertThat(connection.readResponse().bodyText()).isEqualTo("hi");
        }
    }

    @Test
    void sendsNoContinueWhenTheHandlerAnswersWithoutTheBody() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /ignored HTTP/1.1\nHost: a\nContent-Length: 5\nExpect: 100-continue\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("path=/ignored method=POST");
            // The client may or may not send the body it held back, so the connection cannot be reused.
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void refusesAnUnknownExpectationWith417() {
        long before = server.server().rejections(Rejection.EXPECTATION_FAILED);
        try (RawConnection connection = server.connect()) {
            connection.send("POST /aggregate HTTP/1.1\nHost: a\nContent-Length: 5\nExpect: 200-ok\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(417);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
        assertThat(server.server().rejections(Rejection.EXPECTATION_FAILED)).isEqualTo(before + 1);
    }

    @Test
    void refusesADeclaredLargeBodyWith413InsteadOfContinue() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /aggregate HTTP/1.1\nHost: a\nContent-Length: 101\nExpect: 100-continue\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(413);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void ignoresExpectInHttp10() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /aggregate HTTP/1.0\nContent-Length: 2\nExpect: 100-continue\n\nhi");
            assertThat(connection.readResponse().bodyText()).isEqualTo("got 2 bytes");
        }
    }
}

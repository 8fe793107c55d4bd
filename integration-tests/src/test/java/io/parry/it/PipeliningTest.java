package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.RequestLimits;
import io.parry.testing.RawConnection;
import io.parry.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PipeliningTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            Handlers.describing(),
            options -> options.limits(
                    RequestLimits.builder().maxPipelinedRequests(2).build()));

    @Test
    void answersInRequestOrderWhenLaterRequestsFinishFirst() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /delay?ms=300 HTTP/1.1\nHost: a\n\n"
                    + "GET /delay?ms=100 HTTP/1.1\nHost: a\n\n"
                    + "GET /delay?ms=0 HTTP/1.1\nHost: a\n\n"
                    + "GET /last HTTP/1.1\nHost: a\n\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("delayed 300");
            assertThat(connection.readResponse().bodyText()).isEqualTo("delayed 100");
            assertThat(connection.readResponse().bodyText()).isEqualTo("delayed 0");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/last method=GET");
        }
    }

    @Test
    void answersPipelinedRequestsWithBodies() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /echo HTTP/1.1\nHost: a\nContent-Length: 3\n\none"
                    + "POST /echo HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n3\ntwo\n0\n\n"
                    + "GET /end HTTP/1.1\nHost: a\n\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("one");
            assertThat(connection.readResponse().bodyText()).isEqualTo("two");
            assertThat(connection.readResponse().bodyText()).isEqualTo("path=/end method=GET");
        }
    }
}

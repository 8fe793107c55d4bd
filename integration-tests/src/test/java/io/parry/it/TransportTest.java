package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Server;
import io.parry.testing.RawConnection;
import io.parry.transport.TransportKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TransportTest {
    @ParameterizedTest
    @EnumSource(TransportKind.class)
    void servesOnEveryTransportOrFallsBackToNio(TransportKind kind) {
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> HttpResponse.ofText("on " + kind).toStage())
                .options(options -> options.transport(kind))
                .build()
                .start();
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET / HTTP/1.1\nHost: a\n\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("on " + kind);
            if (kind == TransportKind.AUTO) {
                assertThat(server.transport()).isIn(TransportKind.EPOLL, TransportKind.NIO);
            } else {
                assertThat(server.transport()).isIn(kind, TransportKind.NIO);
            }
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void choosesEpollOnLinuxWhenItLoads() {
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> HttpResponse.ofText("ok").toStage())
                .build()
                .start();
        try {
            boolean linux = System.getProperty("os.name").toLowerCase().contains("linux");
            assertThat(server.transport()).isEqualTo(linux ? TransportKind.EPOLL : TransportKind.NIO);
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }
}

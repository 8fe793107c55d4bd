package io.parry.server.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerSentEventTest {
    @Test
    void writesEachLineOfDataAsADataField() {
        ServerSentEvent event = ServerSentEvent.of("one\ntwo\r\nthree")
                .withId("7")
                .withEvent("tick")
                .withRetry(Duration.ofSeconds(2));

        assertThat(event.format()).isEqualTo("id: 7\nevent: tick\nretry: 2000\ndata: one\ndata: two\ndata: three\n\n");
    }

    @Test
    void keepsATrailingLineBreakOfTheData() {
        assertThat(ServerSentEvent.of("x\n").format()).isEqualTo("data: x\ndata: \n\n");
        assertThat(ServerSentEvent.of("").format()).isEqualTo("data: \n\n");
    }

    @Test
    void refusesAnIdThatWouldBreakTheStream() {
        assertThatThrownBy(() -> ServerSentEvent.of("x").withId("1\n2")).isInstanceOf(IllegalArgumentException.class);
    }
}

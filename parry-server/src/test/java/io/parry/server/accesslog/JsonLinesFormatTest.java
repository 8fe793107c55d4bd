package io.parry.server.accesslog;

import static io.parry.server.accesslog.Logs.format;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.server.EndedBy;
import io.parry.server.RequestLog;
import org.junit.jupiter.api.Test;

class JsonLinesFormatTest {

    @Test
    void writesEveryFieldOnOneLine() {
        String line = format(AccessLogFormat.json(), Logs.get().build());

        assertThat(line)
                .isEqualTo("{\"time\":\"2025-01-31T12:00:00.123Z\",\"remote\":\"10.0.0.7\",\"method\":\"GET\","
                        + "\"path\":\"/todos/42\",\"route\":\"/todos/{id}\",\"status\":200,\"bytesIn\":0,"
                        + "\"bytesOut\":57,\"durationMs\":0.412,\"upstream\":null,\"endedBy\":null,"
                        + "\"traceId\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"spanId\":\"00f067aa0ba902b7\","
                        + "\"requestId\":\"1-1\","
                        + "\"userAgent\":\"curl/8.5.0\"}");
    }

    @Test
    void writesNullForWhatARefusedRequestDoesNotHave() {
        RequestLog refused = RequestLog.builder()
                .status(400)
                .requestId("2-1")
                .remoteAddress(Logs.address("::1", 1))
                .build();

        assertThat(format(AccessLogFormat.json(), refused))
                .contains("\"remote\":\"0:0:0:0:0:0:0:1\"")
                .contains("\"method\":null,\"path\":null,\"route\":null,\"status\":400")
                .contains("\"traceId\":null,\"spanId\":null")
                .contains("\"userAgent\":null}");
    }

    @Test
    void saysWhichSideEndedTheExchange() {
        RequestLog log = Logs.get()
                .status(400)
                .upstream("todo/127.0.0.1:9000")
                .endedBy(EndedBy.CLIENT)
                .build();

        assertThat(format(AccessLogFormat.json(), log))
                .contains("\"upstream\":\"todo/127.0.0.1:9000\",\"endedBy\":\"client\",");
        assertThat(format(
                        AccessLogFormat.json(),
                        Logs.get().endedBy(EndedBy.UPSTREAM).build()))
                .contains("\"endedBy\":\"upstream\"");
    }

    @Test
    void escapesWhatTheClientSent() {
        RequestLog log = Logs.get()
                .method(HttpMethod.of("POST"))
                .userAgent("evil\"}\n{\"status\":200")
                .upstream("todo/127.0.0.1:9000")
                .build();

        String line = format(AccessLogFormat.json(), log);

        assertThat(line).doesNotContain("\n").contains("\"userAgent\":\"evil\\\"}\\n{\\\"status\\\":200\"}");
        assertThat(line).contains("\"upstream\":\"todo/127.0.0.1:9000\"");
    }
}

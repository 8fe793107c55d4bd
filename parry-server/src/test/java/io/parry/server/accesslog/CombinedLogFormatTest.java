package io.parry.server.accesslog;

import static io.parry.server.accesslog.Logs.format;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.RequestLog;
import org.junit.jupiter.api.Test;

class CombinedLogFormatTest {

    @Test
    void writesTheCombinedLogFormat() {
        RequestLog log = Logs.get().referer("https://example.com/").build();

        assertThat(format(AccessLogFormat.combined(), log))
                .isEqualTo("10.0.0.7 - - [31/Jan/2025:12:00:00 +0000] \"GET /todos/42?full=yes HTTP/1.1\" 200 57"
                        + " \"https://example.com/\" \"curl/8.5.0\"");
    }

    @Test
    void writesDashesForWhatIsUnknownAndForAnEmptyBody() {
        RequestLog refused = RequestLog.builder()
                .status(400)
                .remoteAddress(Logs.address("10.0.0.8", 1))
                .build();

        assertThat(format(AccessLogFormat.combined(), refused))
                .isEqualTo("10.0.0.8 - - [01/Jan/1970:00:00:00 +0000] \"-\" 400 - \"-\" \"-\"");
    }

    @Test
    void leavesOutAnEmptyQuery() {
        assertThat(format(AccessLogFormat.combined(), Logs.get().query("").build()))
                .contains("\"GET /todos/42 HTTP/1.1\"");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharactersAsHttpdDoes() {
        RequestLog log = Logs.get().userAgent("a\"b\\c\nd").build();

        assertThat(format(AccessLogFormat.combined(), log)).endsWith("\"a\\\"b\\\\c\\x0ad\"");
    }
}

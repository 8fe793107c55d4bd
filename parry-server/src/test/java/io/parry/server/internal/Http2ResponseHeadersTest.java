package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Http2ResponseHeadersTest {
    @Test
    void writesLowerCaseNamesWithoutConnectionSpecificFieldsAndWithTheServersLength() {
        HttpHeaders fields = HttpHeaders.builder()
                .add("Content-Type", "text/plain")
                .add("Connection", "close")
                .add("Keep-Alive", "timeout=5")
                .add("Proxy-Connection", "keep-alive")
                .add("Transfer-Encoding", "chunked")
                .add("Upgrade", "websocket")
                .add("Content-Length", "99")
                .add("X-Trace", "abc")
                .build();
        HttpResponse response = HttpResponse.of(HttpStatus.OK, fields, HttpBody.empty());

        Http2Headers headers = Http2ResponseHeaders.of(response, 5);

        assertThat(fieldsOf(headers))
                .map(field -> field.startsWith("date: ") ? "date: (now)" : field)
                .containsExactly(
                        ":status: 200", "content-type: text/plain", "x-trace: abc", "date: (now)", "content-length: 5");
    }

    @Test
    void keepsTheApplicationsDateAndGivesNoLengthWhenItIsUnknown() {
        HttpHeaders fields = HttpHeaders.of("date", "Sun, 06 Nov 1994 08:49:37 GMT");
        HttpResponse response = HttpResponse.of(HttpStatus.OK, fields, HttpBody.empty());

        assertThat(fieldsOf(Http2ResponseHeaders.of(response, -1)))
                .containsExactly(":status: 200", "date: Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void givesHpackTheSameAsciiStringsForFieldsTheLoopRepeats() {
        HttpResponse response = HttpResponse.ofText("Hello");

        Http2Headers first = Http2ResponseHeaders.of(response, 5);
        Http2Headers second = Http2ResponseHeaders.of(response, 5);

        assertThat(first.get("content-type")).isInstanceOf(AsciiString.class);
        assertThat(second.get("content-type")).isSameAs(first.get("content-type"));
        assertThat(second.names()).anySatisfy(name -> assertThat(name).isInstanceOf(AsciiString.class));
    }

    @Test
    void writesTrailersWithLowerCaseNamesLeavingConnectionSpecificOnesOut() {
        HttpHeaders trailers = HttpHeaders.builder()
                .add("Grpc-Status", "0")
                .add("Connection", "close")
                .build();

        assertThat(fieldsOf(Http2ResponseHeaders.trailers(trailers))).containsExactly("grpc-status: 0");
    }

    private static List<String> fieldsOf(Http2Headers headers) {
        List<String> fields = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> field : headers) {
            fields.add(field.getKey() + ": " + field.getValue());
        }
        return fields;
    }
}

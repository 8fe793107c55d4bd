package io.parry.server.internal;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpVersion;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.spi.FixedBody;
import io.parry.transport.spi.DataBuffers;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bytes of a whole response are those Netty's encoder writes for the same head and body. */
class WholeResponseEncoderTest {
    private static final String DATE = "Sun, 06 Nov 1994 08:49:37 GMT";

    @Test
    void writesWhatNettysEncoderWritesForAFixedBody() {
        HttpResponse response = HttpResponse.of(
                HttpStatus.OK, HttpHeaders.of("content-type", "text/plain", "date", DATE), HttpBody.ofUtf8("hello"));

        assertSameBytes(false, response, HttpHeaderNames.CONTENT_LENGTH, "5", null, true);
    }

    @Test
    void dropsTheApplicationsFramingAndConnectionFieldsAsTheHeadersOfNettysPathDo() {
        HttpResponse response = HttpResponse.of(
                HttpStatus.NOT_FOUND,
                HttpHeaders.of(
                        "Content-Length", "99", "transfer-encoding", "gzip", "Connection", "upgrade", "Date", DATE),
                HttpBody.ofUtf8("gone"));

        assertSameBytes(false, response, HttpHeaderNames.CONTENT_LENGTH, "4", HttpHeaderValues.CLOSE, true);
    }

    @Test
    void writesAnHttp10HeadWithKeepAliveAndNoBody() {
        HttpResponse response = HttpResponse.of(
                HttpStatus.NOT_MODIFIED, HttpHeaders.of("etag", "\"x\"", "date", DATE), HttpBody.empty());

        assertSameBytes(true, response, null, null, HttpHeaderValues.KEEP_ALIVE, false);
    }

    @Test
    void writesObsTextValuesAsTheirLowBytes() {
        HttpResponse response = HttpResponse.of(
                HttpStatus.OK, HttpHeaders.of("x-name", "caf\u00e9", "date", DATE), HttpBody.ofUtf8("caf\u00e9"));

        assertSameBytes(false, response, HttpHeaderNames.CONTENT_LENGTH, "5", null, true);
    }

    @Test
    void addsTheDateWhenTheApplicationGaveNone() {
        HttpResponse response = HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.ofUtf8("hi"));

        String written = encoded(false, response, HttpHeaderNames.CONTENT_LENGTH, "2", null, data(response), null);

        assertThat(written)
                .matches("HTTP/1\\.1 200 OK\r\ndate: \\w{3}, \\d\\d \\w{3} \\d{4} [\\d:]{8} GMT\r\n"
                        + "content-length: 2\r\n\r\nhi");
    }

    @Test
    void writesWhatNettysEncoderWritesForABodyInABufferSmallOrLarge() {
        for (int size : new int[] {1, 1024, 4096, 4097, 70_000}) {
            String text = "x".repeat(size);
            HttpResponse response = HttpResponse.of(HttpStatus.OK, HttpHeaders.of("date", DATE), HttpBody.ofUtf8(text));
            String length = Integer.toString(size);
            ByteBuf body = Unpooled.copiedBuffer(text, ISO_8859_1);

            String written = encoded(false, response, HttpHeaderNames.CONTENT_LENGTH, length, null, null, body);

            assertThat(written).isEqualTo(nettys(false, response, HttpHeaderNames.CONTENT_LENGTH, length, null, true));
            assertThat(body.refCnt()).isZero();
        }
    }

    @Test
    void copiesABodyThatIsASliceOfAReadFromItsOwnStart() {
        String head = "POST /echo HTTP/1.1\r\ncontent-length: 1024\r\n\r\n";
        String text = "0123456789abcdef".repeat(64);
        ByteBuf read = ByteBufAllocator.DEFAULT.directBuffer().writeBytes((head + text).getBytes(ISO_8859_1));
        ByteBuf body = read.skipBytes(head.length()).readRetainedSlice(text.length());
        read.release();
        HttpResponse response = HttpResponse.of(HttpStatus.OK, HttpHeaders.of("date", DATE), HttpBody.ofUtf8(text));

        String written = encoded(false, response, HttpHeaderNames.CONTENT_LENGTH, "1024", null, null, body);

        assertThat(written).isEqualTo(nettys(false, response, HttpHeaderNames.CONTENT_LENGTH, "1024", null, true));
        assertThat(body.refCnt()).isZero();
    }

    @Test
    void writesTheSameBytesForAResponseSentAgainAndAfterAnother() {
        HttpResponse constant = HttpResponse.of(HttpStatus.OK, HttpHeaders.of("date", DATE), HttpBody.ofUtf8("hello"));
        HttpResponse other = HttpResponse.of(HttpStatus.CREATED, HttpHeaders.of("date", DATE), HttpBody.ofUtf8("made"));

        for (int i = 0; i < 2; i++) {
            assertSameBytes(false, constant, HttpHeaderNames.CONTENT_LENGTH, "5", null, true);
            assertSameBytes(false, constant, HttpHeaderNames.CONTENT_LENGTH, "5", null, true);
            assertSameBytes(false, other, HttpHeaderNames.CONTENT_LENGTH, "4", null, true);
        }
    }

    @Test
    void writesEachResponsesFieldsAsSpeltAfterEqualFieldsOfAnotherResponse() {
        List<HttpResponse> responses = List.of(
                typed("Content-Type", "text/plain"),
                typed(new String("Content-Type"), new String("text/plain")),
                typed("content-type", "text/plain"),
                typed("content-type", "text/html"),
                typed("content-type", "text/html"));

        for (HttpResponse response : responses) {
            assertSameBytes(false, response, HttpHeaderNames.CONTENT_LENGTH, "5", null, true);
        }
    }

    @Test
    void laysTheHeadOutAgainWhenTheSameResponseLeavesWithAnotherFramingConnectionOrVersion() {
        HttpResponse response = HttpResponse.of(HttpStatus.OK, HttpHeaders.of("date", DATE), HttpBody.ofUtf8("hello"));

        assertSameBytes(false, response, HttpHeaderNames.CONTENT_LENGTH, "5", null, true);
        assertSameBytes(false, response, HttpHeaderNames.CONTENT_LENGTH, "5", HttpHeaderValues.CLOSE, true);
        assertSameBytes(true, response, HttpHeaderNames.CONTENT_LENGTH, "5", HttpHeaderValues.KEEP_ALIVE, true);
        assertSameBytes(true, response, null, null, HttpHeaderValues.CLOSE, true);
        assertSameBytes(false, response, HttpHeaderNames.CONTENT_LENGTH, "5", null, false);
    }

    @Test
    void leavesTheStatusesWhoseFramingNettyRewritesToNettysEncoder() {
        assertThat(WholeResponseEncoder.encodes(HttpStatus.OK)).isTrue();
        assertThat(WholeResponseEncoder.encodes(HttpStatus.NOT_MODIFIED)).isTrue();
        assertThat(WholeResponseEncoder.encodes(HttpStatus.CONTINUE)).isFalse();
        assertThat(WholeResponseEncoder.encodes(HttpStatus.NO_CONTENT)).isFalse();
        assertThat(WholeResponseEncoder.encodes(HttpStatus.of(205))).isFalse();
    }

    private static void assertSameBytes(
            boolean http10,
            HttpResponse response,
            CharSequence framingName,
            CharSequence framingValue,
            CharSequence connection,
            boolean withBody) {
        String expected = nettys(http10, response, framingName, framingValue, connection, withBody);

        assertThat(encoded(
                        http10,
                        response,
                        framingName,
                        framingValue,
                        connection,
                        withBody ? data(response) : null,
                        null))
                .isEqualTo(expected);
    }

    private static String encoded(
            boolean http10,
            HttpResponse response,
            CharSequence framingName,
            CharSequence framingValue,
            CharSequence connection,
            HttpData data,
            ByteBuf buffer) {
        ByteBuf bytes = WholeResponseEncoder.current()
                .encode(
                        ByteBufAllocator.DEFAULT,
                        http10,
                        NettyStatuses.of(response.status()),
                        response.headers(),
                        framingName,
                        framingValue,
                        connection,
                        HttpDate.now(),
                        data,
                        buffer);
        try {
            return bytes.toString(ISO_8859_1);
        } finally {
            bytes.release();
        }
    }

    private static String nettys(
            boolean http10,
            HttpResponse response,
            CharSequence framingName,
            CharSequence framingValue,
            CharSequence connection,
            boolean withBody) {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder());
        channel.writeOutbound(new DefaultFullHttpResponse(
                http10 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1,
                NettyStatuses.of(response.status()),
                withBody ? DataBuffers.wrap(data(response)) : Unpooled.EMPTY_BUFFER,
                ResponseHeaders.of(response, framingName, framingValue, connection),
                EmptyHttpHeaders.INSTANCE));
        StringBuilder written = new StringBuilder();
        for (ByteBuf part = channel.readOutbound(); part != null; part = channel.readOutbound()) {
            written.append(part.toString(ISO_8859_1));
            part.release();
        }
        channel.finishAndReleaseAll();
        return written.toString();
    }

    private static HttpResponse typed(String name, String type) {
        return HttpResponse.of(HttpStatus.OK, HttpHeaders.of(name, type, "date", DATE), HttpBody.ofUtf8("hello"));
    }

    private static HttpData data(HttpResponse response) {
        return ((FixedBody) response.body()).data();
    }
}

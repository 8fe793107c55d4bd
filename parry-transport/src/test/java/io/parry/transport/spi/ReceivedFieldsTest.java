package io.parry.transport.spi;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReceivedFieldsTest {

    @Test
    void keepsFieldsInArrivalOrderAndFindsThemWithoutCase() {
        HttpRequest request = decode("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nx-a: 2\r\nAccept: */*\r\n\r\n");
        HttpHeaders headers = request.headers();

        assertThat(headers).isInstanceOf(ReceivedFields.class);
        assertThat(headers.size()).isEqualTo(4);
        assertThat(headers.get("HOST")).isEqualTo("h");
        assertThat(headers.get(HttpHeaderNames.ACCEPT)).isEqualTo("*/*");
        assertThat(headers.getAll("X-a")).containsExactly("1", "2");
        assertThat(headers.getAll("missing")).isEmpty();
        assertThat(headers.contains("x-A")).isTrue();
        assertThat(headers.contains("missing")).isFalse();
        assertThat(headers.names()).containsExactly("Host", "X-A", "Accept");
        assertThat(headers.entries())
                .containsExactly(
                        Map.entry("Host", "h"),
                        Map.entry("X-A", "1"),
                        Map.entry("x-a", "2"),
                        Map.entry("Accept", "*/*"));
    }

    @Test
    void givesTheLastHeadersAgainWhenEveryFieldIsSpeltAsBefore() {
        io.parry.http.HttpHeaders first = ReceivedFields.toParry(
                decode("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n\r\n").headers(), null);

        io.parry.http.HttpHeaders again = ReceivedFields.toParry(
                decode("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n\r\n").headers(), first);

        assertThat(first).isEqualTo(io.parry.http.HttpHeaders.of("Host", "h", "X-A", "1"));
        assertThat(again).isSameAs(first);
    }

    @Test
    void copiesFieldsSpeltOtherwiseThanBeforeAsTheyCame() {
        io.parry.http.HttpHeaders first = ReceivedFields.toParry(
                decode("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n\r\n").headers(), null);

        assertThat(ReceivedFields.toParry(
                                decode("GET / HTTP/1.1\r\nHost: h\r\nx-a: 1\r\n\r\n")
                                        .headers(),
                                first)
                        .name(1))
                .isEqualTo("x-a");
        assertThat(ReceivedFields.toParry(
                        decode("GET / HTTP/1.1\r\nHost: h\r\nX-A: 2\r\n\r\n").headers(), first))
                .isEqualTo(io.parry.http.HttpHeaders.of("Host", "h", "X-A", "2"));
        assertThat(ReceivedFields.toParry(
                        decode("GET / HTTP/1.1\r\nHost: h\r\n\r\n").headers(), first))
                .isEqualTo(io.parry.http.HttpHeaders.of("Host", "h"));
        assertThat(ReceivedFields.toParry(
                        decode("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-B: 3\r\n\r\n")
                                .headers(),
                        first))
                .isEqualTo(io.parry.http.HttpHeaders.of("Host", "h", "X-A", "1", "X-B", "3"));
    }

    @Test
    void checksAFieldThatWasNotInTheLastHeaders() {
        io.parry.http.HttpHeaders first = ReceivedFields.toParry(
                decode("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n\r\n").headers(), null);
        HttpHeaders next = decode("GET / HTTP/1.1\r\nHost: h\r\n\r\n").headers();
        next.add("X-A", "1\u0001");

        assertThatThrownBy(() -> ReceivedFields.toParry(next, first)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void findsFramingFieldsAskedForByNettysNamesHoweverTheyAreSpelt() {
        ReceivedFields fields = ReceivedFields.of(
                decode("POST / HTTP/1.1\r\nHost: h\r\nTRANSFER-encoding: chunked\r\nConnection: close\r\n\r\n")
                        .headers());

        assertThat(fields.isChunked()).isTrue();
        assertThat(fields.isKeepAlive(io.netty.handler.codec.http.HttpVersion.HTTP_1_1))
                .isFalse();
        assertThat(fields.contains(HttpHeaderNames.TRANSFER_ENCODING)).isTrue();
        assertThat(fields.contains(HttpHeaderNames.CONTENT_LENGTH)).isFalse();
        assertThat(fields.get(HttpHeaderNames.EXPECT)).isNull();
        assertThat(fields.contentLength()).isEqualTo(-1);

        fields.set(HttpHeaderNames.CONTENT_LENGTH, "7");
        fields.remove("transfer-encoding");
        assertThat(fields.contentLength()).isEqualTo(7);
        assertThat(fields.isChunked()).isFalse();
        fields.clear();
        assertThat(fields.contentLength()).isEqualTo(-1);
        fields.add("content-LENGTH", "3");
        assertThat(fields.contentLength()).isEqualTo(3);
    }

    @Test
    void keepsTrailersThatTheDecoderReads() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpRequestDecoder(new HttpDecoderConfig()
                .setHeadersFactory(ReceivedFields.FACTORY)
                .setTrailersFactory(ReceivedFields.FACTORY)));
        channel.writeInbound(Unpooled.copiedBuffer(
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\nX-Sum: 9\r\n\r\n"
                        + "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nb",
                US_ASCII));

        List<io.netty.handler.codec.http.LastHttpContent> lasts = new java.util.ArrayList<>();
        for (Object message; (message = channel.readInbound()) != null; ) {
            if (message instanceof io.netty.handler.codec.http.LastHttpContent last) {
                lasts.add(last);
            } else {
                ReferenceCountUtil.release(message);
            }
        }
        try {
            assertThat(lasts).hasSize(2);
            assertThat(lasts.get(0).trailingHeaders().get("x-sum")).isEqualTo("9");
            assertThat(lasts.get(1).trailingHeaders().isEmpty()).isTrue();
            assertThat(ReceivedFields.toParry(lasts.get(0).trailingHeaders()).get("x-sum"))
                    .isEqualTo("9");
        } finally {
            lasts.forEach(ReferenceCountUtil::release);
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void remembersRepeatedContentLengthFieldsTheDecoderCollapsedInHttp10() {
        ReceivedFields collapsed =
                ReceivedFields.of(decode("POST / HTTP/1.0\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n")
                        .headers());
        ReceivedFields single = ReceivedFields.of(
                decode("POST / HTTP/1.0\r\nContent-Length: 05\r\n\r\n").headers());

        assertThat(collapsed.getAll("content-length")).containsExactly("5");
        assertThat(collapsed.hadRepeatedContentLength()).isTrue();
        assertThat(single.hadRepeatedContentLength()).isFalse();
    }

    @Test
    void notesARepeatedContentLengthAsItIsAddedAndNotAOneThatReplacedAnother() {
        HttpHeaders repeated = ReceivedFields.FACTORY.newHeaders();
        repeated.add("Content-Length", "5").add("host", "h").add("content-LENGTH", "5");
        HttpHeaders replaced = ReceivedFields.FACTORY.newHeaders();
        replaced.add("Content-Length", "5").remove("content-length").add("Content-Length", "6");
        replaced.set("Content-Length", "7");

        assertThat(ReceivedFields.of(repeated).hadRepeatedContentLength()).isTrue();
        assertThat(ReceivedFields.of(repeated.set("content-length", "5")).hadRepeatedContentLength())
                .isTrue();
        assertThat(ReceivedFields.of(replaced).hadRepeatedContentLength()).isFalse();
        assertThat(ReceivedFields.of(replaced).contentLength()).isEqualTo(7);
    }

    @Test
    void answersNettysKeepAliveAndChunkedQuestionsFromCommaSeparatedElements() {
        HttpRequest chunked = decode(
                "POST / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade , CLOSE\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n");
        HttpRequest keptAlive = decode("GET / HTTP/1.0\r\nConnection: te,keep-alive\r\n\r\n");
        HttpRequest plain = decode("GET / HTTP/1.0\r\nConnection: keep-alive-ish\r\n\r\n");

        assertThat(HttpUtil.isTransferEncodingChunked(chunked)).isTrue();
        assertThat(HttpUtil.isKeepAlive(chunked)).isFalse();
        assertThat(HttpUtil.isKeepAlive(keptAlive)).isTrue();
        assertThat(HttpUtil.isKeepAlive(plain)).isFalse();
        assertThat(chunked.headers().containsValue("connection", "close", false))
                .isFalse();
        assertThat(chunked.headers().contains("transfer-encoding", "GZIP, CHUNKED", true))
                .isTrue();
    }

    @Test
    void answersFramingQuestionsAsNettysHttpUtilDoes() {
        HttpRequest chunked =
                decode("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n");
        HttpRequest sized = decode("POST / HTTP/1.0\r\nContent-Length: 12\r\nConnection: Keep-Alive\r\n\r\n");
        HttpRequest bare = decode("GET / HTTP/1.0\r\n\r\n");

        for (HttpRequest request : List.of(chunked, sized, bare)) {
            ReceivedFields fields = ReceivedFields.of(request.headers());
            assertThat(fields.isChunked()).isEqualTo(HttpUtil.isTransferEncodingChunked(request));
            assertThat(fields.isKeepAlive(request.protocolVersion())).isEqualTo(HttpUtil.isKeepAlive(request));
            assertThat(fields.contentLength()).isEqualTo(HttpUtil.getContentLength(request, -1L));
        }
        assertThat(ReceivedFields.of(sized.headers()).contentLength()).isEqualTo(12);
        assertThat(ReceivedFields.of(sized.headers()).isKeepAlive(sized.protocolVersion()))
                .isTrue();
        assertThat(ReceivedFields.of(chunked.headers()).isKeepAlive(chunked.protocolVersion()))
                .isFalse();
    }

    @Test
    void turnsOtherHeadersIntoReceivedFields() {
        HttpHeaders netty = new io.netty.handler.codec.http.DefaultHttpHeaders().add("Content-Length", "7");

        ReceivedFields fields = ReceivedFields.of(netty);

        assertThat(fields.contentLength()).isEqualTo(7);
        assertThat(ReceivedFields.of(fields)).isSameAs(fields);
    }

    @Test
    void letsTheDecoderNormaliseARepeatedContentLength() {
        HttpDecoderConfig config = new HttpDecoderConfig()
                .setHeadersFactory(ReceivedFields.FACTORY)
                .setAllowDuplicateContentLengths(true);
        HttpRequest request =
                decode(config, "POST / HTTP/1.1\r\nContent-Length: 3\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc");

        assertThat(request.headers().getAll(HttpHeaderNames.CONTENT_LENGTH)).containsExactly("3");
        assertThat(request.headers().names()).containsExactly("Host", "content-length");
        assertThat(HttpUtil.getContentLength(request)).isEqualTo(3);
    }

    @Test
    void setsRemovesAndClears() {
        HttpHeaders headers = ReceivedFields.FACTORY.newHeaders();
        for (int i = 0; i < 20; i++) {
            headers.add("f" + i, i);
        }
        headers.add("F3", "again").set("f5", List.of("x", "y")).remove("F7").setInt("n", 42);

        assertThat(headers.size()).isEqualTo(22);
        assertThat(headers.getAll("f3")).containsExactly("3", "again");
        assertThat(headers.getAll("f5")).containsExactly("x", "y");
        assertThat(headers.contains("f7")).isFalse();
        assertThat(headers.getInt("n")).isEqualTo(42);
        assertThat(headers.getInt("f5", -1)).isEqualTo(-1);
        assertThat(headers.clear().isEmpty()).isTrue();
        assertThat(headers.iterator().hasNext()).isFalse();
    }

    @Test
    void copiesIntoParrysValidatedHeaders() {
        HttpRequest request = decode("GET / HTTP/1.1\r\nHost: h\r\nX-Trace: a b\r\n\r\n");

        io.parry.http.HttpHeaders copy = ReceivedFields.toParry(request.headers());

        assertThat(copy.size()).isEqualTo(2);
        assertThat(copy.name(1)).isEqualTo("X-Trace");
        assertThat(copy.get("x-trace")).isEqualTo("a b");
        assertThat(ReceivedFields.toParry(ReceivedFields.FACTORY.newHeaders()).size())
                .isZero();
        HttpHeaders invalid = ReceivedFields.FACTORY.newHeaders().add("bad name", "x");
        assertThatThrownBy(() -> ReceivedFields.toParry(invalid)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void copiesOtherNettyHeadersToo() {
        HttpHeaders netty = new io.netty.handler.codec.http.DefaultHttpHeaders()
                .add("A", "1")
                .add(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);

        io.parry.http.HttpHeaders copy = ReceivedFields.toParry(netty);

        assertThat(copy.get("a")).isEqualTo("1");
        assertThat(copy.get("connection")).isEqualTo("close");
    }

    private static HttpRequest decode(String head) {
        return decode(new HttpDecoderConfig().setHeadersFactory(ReceivedFields.FACTORY), head);
    }

    private static HttpRequest decode(HttpDecoderConfig config, String head) {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpRequestDecoder(config));
        channel.writeInbound(Unpooled.copiedBuffer(head, US_ASCII));
        HttpRequest request = channel.readInbound();
        assertThat(request.decoderResult().isSuccess()).as("decoded").isTrue();
        Object rest;
        while ((rest = channel.readInbound()) != null) {
            ReferenceCountUtil.release(rest);
        }
        channel.finishAndReleaseAll();
        return request;
    }
}

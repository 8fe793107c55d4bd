package io.parry.server.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.parry.transport.spi.ReceivedFields;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The decoder hands on the request of a head repeated byte for byte again, and parses every other head. */
class RepeatedHeadTest {
    private static final String ECHO = "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\r\n\r\n";

    private final StrictRequestDecoder decoder = decoder();
    private final EmbeddedChannel channel = new EmbeddedChannel(decoder);

    @AfterEach
    void closeChannel() {
        channel.finishAndReleaseAll();
    }

    @Test
    void handsOnTheSameRequestForAHeadRepeatedByteForByte() {
        write(ECHO + "hello");
        write(ECHO + "world");

        List<Decoded> decoded = readAll();

        assertThat(decoded).extracting(Decoded::body).containsExactly("hello", "world");
        assertThat(decoded.get(1).request).isSameAs(decoded.get(0).request);
        assertThat(decoded.get(1).last).isTrue();
    }

    @Test
    void handsOnTheSameRequestWithNoBodyAndTheEmptyLastContent() {
        String get = "GET /a HTTP/1.1\r\nHost: a\r\n\r\n";
        write(get);
        write(get);
        readAll();
        write(get);

        HttpRequest request = channel.readInbound();
        Object last = channel.readInbound();

        assertThat(request.uri()).isEqualTo("/a");
        assertThat(last).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** Each differs from {@link #ECHO} in one place: every one must be parsed, and read as a new decoder reads it. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\nX-A: b\r\n\r\nhello!",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nX-A: b\r\n\r\nhell",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: c\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: c\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\rc\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: \u0001\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: c\r\nX-B: d\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: c\r\n\r\nhell",
                "POST /echo HTTP/1.1\r\nHost: b\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-Ab: b\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-a: b\r\n\r\nhello",
                "POST /echO HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\r\nX-B: c\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\r\n c\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\n\r\nhello",
                "\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello",
                "POST /echo HTTP/1.0\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A: b\r\n\r\n",
            })
    void parsesAHeadThatDiffersFromTheLastInOneByte(String different) {
        write(ECHO + "hello");
        HttpRequest kept = readAll().get(0).request;

        write(different);
        List<Decoded> decoded = readAll();
        List<Decoded> expected = decodeAlone(different);

        assertThat(decoded).hasSameSizeAs(expected);
        for (int i = 0; i < decoded.size(); i++) {
            assertThat(decoded.get(i).request).isNotSameAs(kept);
            assertThat(decoded.get(i).toString()).isEqualTo(expected.get(i).toString());
        }
    }

    /** Each differs from {@link #ECHO} in the value of X-A alone: read without a parse, as a new decoder reads it. */
    @ParameterizedTest
    @ValueSource(strings = {"c", "bb", "", "  spaced\tvalue \t", "a value longer than the one kept before it"})
    void takesTheKeptHeadWithTheNewValueForAHeadThatVariesInOneValue(String value) {
        write(ECHO + "hello");
        HttpRequest kept = readAll().get(0).request;
        String varied = ECHO.replace("X-A: b", "X-A: " + value) + "hello";

        write(varied + ECHO.replace("X-A: b", "X-A: again") + "world");
        List<Decoded> decoded = readAll();

        List<Decoded> expected = decodeAlone(varied);
        assertThat(decoded).hasSize(2);
        assertThat(decoded.get(0).toString()).isEqualTo(expected.get(0).toString());
        assertThat(decoded.get(1).request.headers().get("x-a")).isEqualTo("again");
        assertThat(decoded.get(1).body()).isEqualTo("world");
        // Not parsed: the names are the kept head's own, where a parse makes new ones (but for Netty's few constants).
        assertThat(decoded.get(0).request).isNotSameAs(kept);
        assertThat(nameOfX(decoded.get(0).request)).isSameAs(nameOfX(kept));
    }

    @Test
    void keepsHeadsWhileTheyVaryInOneValue() {
        for (int i = 0; i < 2 * RepeatedHead.MAX_MISSES; i++) {
            write("GET /a HTTP/1.1\r\nHost: a\r\nX-Id: " + i + "\r\n\r\n");
        }
        List<Decoded> decoded = readAll();

        assertThat(decoded)
                .extracting(d -> d.request.headers().get("x-id"))
                .containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15");
        assertThat(sameObjectWhenRepeated("GET /a HTTP/1.1\r\nHost: a\r\nX-Id: 0\r\n\r\n"))
                .isTrue();
    }

    @Test
    void decodesARepeatedRequestSplitAcrossReadsAtEveryByte() {
        String request = ECHO + "hello";
        write(request);
        readAll();

        for (int split = 1; split < request.length(); split++) {
            write(request.substring(0, split));
            write(request.substring(split));

            List<Decoded> decoded = readAll();
            assertThat(decoded).as("split at %d", split).hasSize(1);
            assertThat(decoded.get(0).body()).isEqualTo("hello");
            assertThat(decoded.get(0).last).isTrue();
        }
    }

    @Test
    void decodesPipelinedRepeatedRequestsInOrder() {
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            requests.append(ECHO).append(String.format("b%04d", i));
        }
        write(requests.toString());

        List<Decoded> decoded = readAll();

        assertThat(decoded).hasSize(20);
        for (int i = 0; i < 20; i++) {
            assertThat(decoded.get(i).body()).isEqualTo(String.format("b%04d", i));
            assertThat(decoded.get(i).last).isTrue();
            assertThat(decoded.get(i).request).isSameAs(decoded.get(0).request);
        }
    }

    @Test
    void waitsForTheWholeBodyOfARepeatedHeadAndTakesWhatFollowsAsTheNextRequest() {
        write(ECHO + "hello");
        readAll();

        write(ECHO + "he");
        write("llo" + ECHO + "12345GET /next HTTP/1.1\r\nHost: a\r\n\r\n");

        List<Decoded> decoded = readAll();
        assertThat(decoded).extracting(Decoded::body).containsExactly("hello", "12345", "");
        assertThat(decoded.get(2).request.uri()).isEqualTo("/next");
    }

    @Test
    void parsesAgainAHeadTheConnectionRefused() {
        write(ECHO + "hello");
        HttpRequest first = readAll().get(0).request;
        decoder.forgetRepeatedHead();

        write(ECHO + "hello");

        assertThat(readAll().get(0).request).isNotSameAs(first);
    }

    @Test
    void keepsNoHeadThatFailed() {
        String folded = "GET /a HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n";
        write(folded);
        HttpRequest first = readAll().get(0).request;
        assertThat(first.decoderResult().isFailure()).isTrue();

        write(folded);

        HttpRequest second = readAll().get(0).request;
        assertThat(second).isNotSameAs(first);
        assertThat(second.decoderResult().isFailure()).isTrue();
    }

    @Test
    void takesNothingAsARequestAfterAMalformedChunk() {
        write("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
        readAll();
        write("POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
        readAll();

        write("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");

        assertThat(readAll()).isEmpty();
    }

    /** Heads whose meaning is not all in their bytes, or whose body Netty hands on in pieces, are parsed each time. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "GET /a HTTP/1.0\r\nHost: a\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx",
                "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 16385\r\n\r\n",
            })
    void parsesEachTimeAHeadThatIsNotKept(String head) {
        byte[] request = request(head);
        channel.writeInbound(Unpooled.wrappedBuffer(request));
        HttpRequest first = readAll().get(0).request;

        channel.writeInbound(Unpooled.wrappedBuffer(request));

        assertThat(readAll().get(0).request).isNotSameAs(first);
    }

    @Test
    void keepsAHeadOf1024BytesButNotALongerOne() {
        String start = "GET /a HTTP/1.1\r\nHost: a\r\nX-Pad: ";
        String longest = start + "p".repeat(RepeatedHead.MAX_SIZE - start.length() - 4) + "\r\n\r\n";
        String longer = start + "p".repeat(RepeatedHead.MAX_SIZE - start.length() - 3) + "\r\n\r\n";

        assertThat(sameObjectWhenRepeated(longest)).isTrue();
        assertThat(sameObjectWhenRepeated(longer)).isFalse();
    }

    @Test
    void stopsKeepingHeadsAfterEightInARowThatDiffer() {
        for (int i = 0; i < RepeatedHead.MAX_MISSES; i++) {
            write("GET /a" + i + " HTTP/1.1\r\nHost: a\r\n\r\n");
        }
        readAll();

        assertThat(sameObjectWhenRepeated("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")).isFalse();
    }

    @Test
    void keepsHeadsWhileFewerThanEightInARowDiffer() {
        for (int i = 0; i < RepeatedHead.MAX_MISSES - 1; i++) {
            write("GET /a" + i + " HTTP/1.1\r\nHost: a\r\n\r\n");
        }
        readAll();

        assertThat(sameObjectWhenRepeated("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")).isTrue();
    }

    /** The name of {@link #ECHO}'s third field, X-A, as the request holds it. */
    private static CharSequence nameOfX(HttpRequest request) {
        Iterator<Map.Entry<CharSequence, CharSequence>> fields =
                request.headers().iteratorCharSequence();
        fields.next();
        fields.next();
        return fields.next().getKey();
    }

    private boolean sameObjectWhenRepeated(String head) {
        write(head);
        HttpRequest first = readAll().get(0).request;
        write(head);
        return readAll().get(0).request == first;
    }

    /** A head padded with its declared body, so each request is whole. */
    private static byte[] request(String head) {
        int length = head.indexOf("Content-Length: 16385") >= 0 ? 16385 : 0;
        byte[] headBytes = head.getBytes(US_ASCII);
        byte[] all = new byte[headBytes.length + length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        return all;
    }

    private void write(String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, US_ASCII));
    }

    /** The requests read so far, each with its body; everything released. */
    private List<Decoded> readAll() {
        return drain(channel);
    }

    private static List<Decoded> decodeAlone(String text) {
        EmbeddedChannel alone = new EmbeddedChannel(decoder());
        try {
            alone.writeInbound(Unpooled.copiedBuffer(text, US_ASCII));
            return drain(alone);
        } finally {
            alone.finishAndReleaseAll();
        }
    }

    private static List<Decoded> drain(EmbeddedChannel channel) {
        List<Decoded> decoded = new ArrayList<>();
        Object message;
        while ((message = channel.readInbound()) != null) {
            try {
                if (message instanceof HttpRequest request) {
                    decoded.add(new Decoded(request));
                }
                if (message instanceof HttpContent content) {
                    Decoded current = decoded.get(decoded.size() - 1);
                    current.body.append(content.content().toString(US_ASCII));
                    current.last = content instanceof LastHttpContent;
                    current.failed |= content.decoderResult().isFailure();
                }
            } finally {
                ReferenceCountUtil.release(message);
            }
        }
        return decoded;
    }

    private static StrictRequestDecoder decoder() {
        return new StrictRequestDecoder(new HttpDecoderConfig()
                .setStrictLineParsing(true)
                .setMaxChunkSize(16 * 1024)
                .setValidateHeaders(false)
                .setHeadersFactory(ReceivedFields.FACTORY)
                .setTrailersFactory(ReceivedFields.FACTORY)
                .setUseRfc9112TransferEncoding(true));
    }

    /** A decoded request with the body that followed it. */
    private static final class Decoded {
        final HttpRequest request;
        final StringBuilder body = new StringBuilder();
        boolean last;
        boolean failed;

        Decoded(HttpRequest request) {
            this.request = request;
        }

        String body() {
            return body.toString();
        }

        @Override
        public String toString() {
            List<Map.Entry<String, String>> fields = request.headers().entries();
            return request.method() + " " + request.uri() + " " + request.protocolVersion() + " " + fields + " "
                    + request.decoderResult() + " body=" + body + " last=" + last + " failed=" + failed;
        }
    }
}

package io.parry.benchmarks.jmh;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.util.AsciiString;
import io.parry.transport.spi.ReceivedFields;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The header work of every received head once Netty has split its lines: filling the decoder's
 * headers object, the decoder's own framing checks, the server's (Content-Length, chunked, Expect,
 * keep-alive), and the copy into Parry's validated headers. Netty's {@code DefaultHttpHeaders}
 * (validation off, as Parry configured it before) against {@link ReceivedFields}.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar ReceivedHeadBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ReceivedHeadBenchmark {
    private static final HttpHeadersFactory NETTY =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    /** {@code wrk}: the one field a load generator sends; {@code browser}: an API call from a browser. */
    @Param({"wrk", "browser"})
    public String client;

    private AsciiString[] names;
    private String[] values;

    @org.openjdk.jmh.annotations.Setup
    public void fields() {
        String[] namesAndValues = client.equals("wrk")
                ? new String[] {"Host", "127.0.0.1:8080"}
                : new String[] {
                    "Host", "api.example.com",
                    "User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36",
                    "Accept", "application/json, text/plain, */*",
                    "Accept-Language", "en-GB,en;q=0.9",
                    "Accept-Encoding", "gzip, deflate, br",
                    "Connection", "keep-alive",
                    "Cookie", "session=4f9a1c2e7b; theme=dark",
                };
        names = new AsciiString[namesAndValues.length / 2];
        values = new String[namesAndValues.length / 2];
        for (int i = 0; i < names.length; i++) {
            names[i] = new AsciiString(namesAndValues[2 * i]);
            values[i] = namesAndValues[2 * i + 1];
        }
    }

    @Benchmark
    public io.parry.http.HttpHeaders nettyHeaders() {
        HttpHeaders headers = fill(NETTY.newHeaders());
        boolean chunked = headers.containsValue(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED, true);
        String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
        boolean keepAlive = !headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true);
        return answer(headers, chunked, length, keepAlive);
    }

    @Benchmark
    public io.parry.http.HttpHeaders receivedFields() {
        ReceivedFields headers = (ReceivedFields) fill(ReceivedFields.FACTORY.newHeaders());
        boolean chunked = headers.isChunked();
        long length = headers.contentLength();
        boolean keepAlive = headers.isKeepAlive(io.netty.handler.codec.http.HttpVersion.HTTP_1_1);
        return answer(headers, chunked, length < 0 ? null : "", keepAlive);
    }

    private HttpHeaders fill(HttpHeaders headers) {
        for (int i = 0; i < names.length; i++) {
            headers.add(names[i], values[i]);
        }
        // What Netty's decoder asks of every head it has read.
        headers.getAll(HttpHeaderNames.CONTENT_LENGTH);
        headers.contains(HttpHeaderNames.TRANSFER_ENCODING);
        return headers;
    }

    private static io.parry.http.HttpHeaders answer(
            HttpHeaders headers, boolean chunked, String length, boolean keepAlive) {
        if (chunked || length != null || !keepAlive || headers.get(HttpHeaderNames.EXPECT) != null) {
            throw new IllegalStateException("a plain GET was expected");
        }
        return ReceivedFields.toParry(headers);
    }
}

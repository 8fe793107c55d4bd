package io.parry.benchmarks.jmh;

import io.netty.handler.codec.http.HttpHeaders;
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
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The client's copy of a response head into Parry's validated headers, each field checked ({@code toParry(fields)}),
 * against the copy given the connection's last response's headers ({@code toParry(fields, last)}), which takes the
 * fields spelt as that response's unchecked. The decoder's fields are new strings for every head, as Netty's
 * decoder makes them, so a comparison cannot stop at the same object.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar ResponseHeadCopyBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ResponseHeadCopyBenchmark {
    /**
     * {@code parry}: a Parry upstream's hello; {@code baseline}: the raw-Netty baseline's (its {@code Date} changes
     * once a second, so nearly every head repeats the last); {@code api}: an API server's, whose ids and length differ
     * from the fourth field on.
     */
    @Param({"parry", "baseline", "api"})
    public String upstream;

    private char[][] names;
    private char[][] values;
    private char[][] otherValues;
    private io.parry.http.HttpHeaders last;
    private int count;

    @Setup
    public void fields() {
        String[] fields =
                switch (upstream) {
                    case "parry" -> new String[] {"content-type", "text/plain; charset=utf-8", "content-length", "13"};
                    case "baseline" -> new String[] {
                        "content-type", "text/plain",
                        "content-length", "13",
                        "server", "netty-baseline",
                        "date", "Thu, 26 Nov 2026 15:30:00 GMT"
                    };
                    default -> new String[] {
                        "Date", "Thu, 26 Nov 2026 15:30:00 GMT",
                        "Content-Type", "application/json",
                        "Connection", "keep-alive",
                        "Content-Length", "1234",
                        "ETag", "\"5f2a-1b3c9d\"",
                        "X-Request-Id", "7d3c9f1e-2a4b-4c8d-9e0f-1a2b3c4d5e6f",
                        "Cache-Control", "no-cache"
                    };
                };
        names = new char[fields.length / 2][];
        values = new char[fields.length / 2][];
        otherValues = new char[fields.length / 2][];
        for (int i = 0; i < names.length; i++) {
            names[i] = fields[2 * i].toCharArray();
            values[i] = fields[2 * i + 1].toCharArray();
            otherValues[i] = values[i].clone();
        }
        if (upstream.equals("api")) {
            otherValues[3] = "1235".toCharArray();
            otherValues[4] = "\"5f2a-1b3c9e\"".toCharArray();
            otherValues[5] = "8d3c9f1e-2a4b-4c8d-9e0f-1a2b3c4d5e6f".toCharArray();
        }
        last = ReceivedFields.toParry(head());
    }

    @Benchmark
    public io.parry.http.HttpHeaders checked() {
        return ReceivedFields.toParry(head());
    }

    @Benchmark
    public io.parry.http.HttpHeaders againstLast() {
        io.parry.http.HttpHeaders headers = ReceivedFields.toParry(head(), last);
        last = headers;
        return headers;
    }

    /** A head as the decoder makes it; an API server's alternates between two, as its ids change. */
    private HttpHeaders head() {
        char[][] these = (count++ & 1) == 0 ? values : otherValues;
        HttpHeaders headers = ReceivedFields.FACTORY.newHeaders();
        for (int i = 0; i < names.length; i++) {
            headers.add(new String(names[i]), new String(these[i]));
        }
        return headers;
    }
}

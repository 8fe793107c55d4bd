package io.parry.benchmarks.jmh;

import io.parry.http.HttpHeaders;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What tracing costs a request: finding the trace fields among a browser's headers, parsing them
 * into the server's span, making the id strings the MDC needs, and writing the trace onward.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar TraceHeadersBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TraceHeadersBenchmark {
    private static final String[] BROWSER = {
        "Host", "api.example.com",
        "User-Agent",
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
        "Accept", "application/json, text/plain, */*",
        "Accept-Language", "en-GB,en;q=0.9",
        "Accept-Encoding", "gzip, deflate, br",
        "Connection", "keep-alive",
        "Cookie", "session=4f9a1c2e7b; theme=dark",
    };

    /** A browser's header fields without a trace, with a {@code traceparent}, and with a {@code b3}. */
    @State(Scope.Benchmark)
    public static class Requests {
        final TracePropagation propagation = TracePropagation.ofDefault();
        final HttpHeaders untraced = HttpHeaders.of(BROWSER);
        final HttpHeaders w3c = untraced.toBuilder()
                .add("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .build();
        final HttpHeaders b3 = untraced.toBuilder()
                .add("b3", "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b90")
                .build();
        final HttpHeaders upstream = HttpHeaders.of("host", "backend:8080", "accept", "application/json");
        final TraceContext span = propagation.nextSpan(w3c);
    }

    @Benchmark
    public TraceContext extractTraceparent(Requests requests) {
        return requests.propagation.extract(requests.w3c);
    }

    @Benchmark
    public TraceContext nextSpanWithoutTraceFields(Requests requests) {
        return requests.propagation.nextSpan(requests.untraced);
    }

    @Benchmark
    public TraceContext nextSpanFromTraceparent(Requests requests) {
        return requests.propagation.nextSpan(requests.w3c);
    }

    @Benchmark
    public TraceContext nextSpanFromB3(Requests requests) {
        return requests.propagation.nextSpan(requests.b3);
    }

    /** A new span and the two strings the MDC holds for it: once per request with tracing on. */
    @Benchmark
    public void childAndItsIdStrings(Requests requests, Blackhole blackhole) {
        TraceContext child = requests.span.child();
        blackhole.consume(child.traceId());
        blackhole.consume(child.spanId());
    }

    @Benchmark
    public HttpHeaders injectTraceparent(Requests requests) {
        return requests.propagation.inject(requests.span, requests.upstream);
    }
}

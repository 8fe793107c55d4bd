package io.parry.benchmarks.jmh;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
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
 * What the server does with every request head beyond Netty's decoding: validate the header fields
 * into {@link HttpHeaders}, and parse and normalise the target into an {@link HttpRequest}.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar RequestHeadBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RequestHeadBenchmark {
    /** Request targets: a bare path, a query, and a path that needs percent-decoding and dot-segment removal. */
    @State(Scope.Benchmark)
    public static class Targets {
        @Param({"/plaintext", "/todos/42?expand=owner&limit=10", "/a/b/../c/%2e%2e/d%41"})
        public String target;
    }

    /** The header fields a browser sends with an API call. */
    @State(Scope.Benchmark)
    public static class BrowserHeaders {
        final String[] namesAndValues = {
            "Host", "api.example.com",
            "User-Agent",
                    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
            "Accept", "application/json, text/plain, */*",
            "Accept-Language", "en-GB,en;q=0.9",
            "Accept-Encoding", "gzip, deflate, br",
            "Connection", "keep-alive",
            "Cookie", "session=4f9a1c2e7b; theme=dark",
        };
        final HttpHeaders built = HttpHeaders.of(namesAndValues);
    }

    @Benchmark
    public HttpRequest buildRequest(Targets targets) {
        return HttpRequest.builder(HttpMethod.GET, targets.target).build();
    }

    @Benchmark
    public HttpHeaders validateBrowserHeaders(BrowserHeaders headers) {
        return HttpHeaders.of(headers.namesAndValues);
    }

    @Benchmark
    public String lookUpTheLastHeader(BrowserHeaders headers) {
        return headers.built.get("cookie");
    }
}

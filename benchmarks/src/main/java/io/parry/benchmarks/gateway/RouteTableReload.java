package io.parry.benchmarks.gateway;

import io.parry.benchmarks.Env;
import io.parry.gateway.ReloadResult;
import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.reload.ConfigSource;
import io.parry.gateway.internal.reload.ReloadTrigger;
import io.parry.gateway.internal.reload.Reloader;
import io.parry.gateway.internal.upstream.Retirement;
import io.parry.gateway.internal.upstream.UpstreamRegistry;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.server.routing.Route;
import io.parry.server.routing.Router;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * How long the gateway takes to load a large route table and swap it in: the first load (parse,
 * validate, start 50 upstream groups, compile, swap), then {@code RUNS} reloads of a file whose every
 * route changed, timed as {@code Gateway.reload()} does them (read, parse, validate, compile, swap; the
 * upstream groups are equal and kept). Prints each phase's median and the reload's, then the lookup
 * cost in the swapped-in table. {@code ROUTES} (5,000), {@code RUNS} (10), {@code WARMUP} (3).
 */
public final class RouteTableReload {
    private RouteTableReload() {}

    public static void main(String[] args) throws IOException {
        int routes = Env.intValue("ROUTES", 5_000);
        int runs = Env.intValue("RUNS", 10);
        int warmup = Env.intValue("WARMUP", 3);
        Path dir = Files.createTempDirectory("parry-route-table");
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, LargeRouteFile.yaml(routes, 0));
        System.out.printf(
                "%d routes, %d upstream groups, %d KiB of YAML%n",
                routes, LargeRouteFile.UPSTREAMS, Files.size(file) / 1024);

        UpstreamRegistry registry = new UpstreamRegistry(new Retirement(Duration.ofMillis(100), Duration.ofSeconds(5)));
        Reloader reloader = new Reloader(ConfigSource.file(file, Map.of()), registry);
        try {
            long start = System.nanoTime();
            reloader.start(ConfigLoader.load(file, Map.of()));
            System.out.printf("first load (cold JVM, 50 new upstream groups): %.1f ms%n", millis(start));

            List<Double> parses = new ArrayList<>();
            List<Double> reloads = new ArrayList<>();
            for (int generation = 1; generation <= warmup + runs; generation++) {
                Files.writeString(file, LargeRouteFile.yaml(routes, generation));
                long parseStart = System.nanoTime();
                GatewayConfig parsed = ConfigLoader.load(file, Map.of());
                double parse = millis(parseStart);
                long reloadStart = System.nanoTime();
                ReloadResult result = reloader.reload(ReloadTrigger.API).join();
                double reload = millis(reloadStart);
                check(result, parsed, reloader.table(), routes, generation);
                if (generation > warmup) {
                    parses.add(parse);
                    reloads.add(reload);
                    System.out.printf(
                            "reload %d: %.1f ms (parse and validate alone: %.1f ms)%n",
                            generation - warmup, reload, parse);
                }
            }
            double median = median(reloads);
            System.out.printf(
                    "median over %d reloads of %d routes: parse and validate %.1f ms; whole reload (read,"
                            + " parse, validate, compile, swap) %.1f ms (target <= 200 ms: %s)%n",
                    runs, routes, median(parses), median, median <= 200 ? "met" : "MISSED");
            lookups(reloader.table(), routes, warmup + runs);
        } finally {
            reloader.close();
            registry.close();
        }
    }

    private static void check(ReloadResult result, GatewayConfig parsed, Router table, int routes, int generation) {
        if (!result.applied() || parsed.routes().size() != routes) {
            throw new IllegalStateException("reload " + generation + " failed: " + result);
        }
        String route = table.find(HttpRequest.of(HttpMethod.GET, LargeRouteFile.prefix(3, generation) + "/x"))
                .map(Route::name)
                .orElse(null);
        if (!"route-3".equals(route)) {
            throw new IllegalStateException("generation " + generation + " is not the live table: " + route);
        }
    }

    /** Nanoseconds per lookup over a mix of prefix, template, exact and unmatched paths. */
    private static void lookups(Router table, int routes, int generation) {
        List<HttpRequest> requests = new ArrayList<>();
        for (int r = 0; r < routes; r += 7) {
            requests.add(HttpRequest.of(HttpMethod.GET, LargeRouteFile.prefix(r - r % 3, generation) + "/a/b"));
            requests.add(HttpRequest.of(HttpMethod.GET, "/users/42/items-" + (r - r % 3 + 1) + "-" + generation));
            requests.add(HttpRequest.builder(HttpMethod.GET, LargeRouteFile.exact(r - r % 3 + 2, generation))
                    .header("host", "www.example.com")
                    .build());
            requests.add(HttpRequest.of(HttpMethod.GET, "/nowhere/" + r));
        }
        int matched = 0;
        for (int round = 0; round < 200; round++) {
            for (HttpRequest request : requests) {
                matched += table.find(request).isPresent() ? 1 : 0;
            }
        }
        long start = System.nanoTime();
        int rounds = 200;
        for (int round = 0; round < rounds; round++) {
            for (HttpRequest request : requests) {
                matched += table.find(request).isPresent() ? 1 : 0;
            }
        }
        double nanos = (System.nanoTime() - start) / (double) (rounds * requests.size());
        System.out.printf(
                "lookup in the %d-route table: %.0f ns per request (%d paths, 3 of 4 matching; %d)%n",
                routes, nanos, requests.size(), matched % 10);
    }

    private static double millis(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}

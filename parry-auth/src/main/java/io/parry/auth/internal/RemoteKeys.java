package io.parry.auth.internal;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys of a JWK Set, fetched from a URL and fetched again when stale or when a token names an
 * unknown key, at most one fetch at a time and never two closer than the minimum interval.
 */
public final class RemoteKeys {
    private static final Logger log = LoggerFactory.getLogger("io.parry.auth.jwks");
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final URI url;
    private final HttpClient configuredClient;
    private final long refreshNanos;
    private final long minRefreshNanos;
    private final ClientTimeouts timeouts;
    private final int maxSize;
    private final AtomicReference<CompletableFuture<Void>> inflight = new AtomicReference<>();
    private final AtomicLong fetches = new AtomicLong();
    private volatile HttpClient ownClient;
    private volatile JWKSet keys;
    private volatile long fetchedAtNanos;
    private volatile long lastAttemptNanos;
    private volatile boolean attempted;

    private RemoteKeys(
            URI url,
            HttpClient client,
            Duration refresh,
            Duration minRefresh,
            Duration timeout,
            int maxSize,
            JWKSet keys) {
        this.url = url;
        this.configuredClient = client;
        this.refreshNanos = refresh.toNanos();
        this.minRefreshNanos = minRefresh.toNanos();
        this.timeouts = ClientTimeouts.builder()
                .connect(timeout)
                .responseHeaders(timeout)
                .call(timeout)
                .build();
        this.maxSize = maxSize;
        this.keys = keys;
    }

    public static RemoteKeys fixed(JWKSet keys) {
        return new RemoteKeys(null, null, Duration.ofDays(1), Duration.ZERO, Duration.ofSeconds(1), 1, keys);
    }

    public static RemoteKeys fetched(
            URI url, HttpClient client, Duration refresh, Duration minRefresh, Duration timeout, int maxSize) {
        return new RemoteKeys(url, client, refresh, minRefresh, timeout, maxSize, new JWKSet());
    }

    public CompletionStage<JWK> key(String keyId) {
        JWKSet known = keys;
        JWK key = find(known, keyId);
        if (url == null) {
            return CompletableFuture.completedFuture(key);
        }
        if (key != null) {
            if (System.nanoTime() - fetchedAtNanos > refreshNanos) {
                refresh();
            }
            return CompletableFuture.completedFuture(key);
        }
        CompletableFuture<Void> fetch = refresh().toCompletableFuture();
        if (fetch.isDone() && keys == known) {
            return CompletableFuture.completedFuture(null);
        }
        return fetch.thenApply(ignored -> find(keys, keyId));
    }

    public CompletionStage<Void> refresh() {
        if (url == null) {
            return DONE;
        }
        CompletableFuture<Void> running = inflight.get();
        if (running != null) {
            return running;
        }
        long now = System.nanoTime();
        if (attempted && now - lastAttemptNanos < minRefreshNanos) {
            return DONE;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (!inflight.compareAndSet(null, mine)) {
            running = inflight.get();
            return running == null ? DONE : running;
        }
        lastAttemptNanos = now;
        attempted = true;
        fetches.incrementAndGet();
        fetch().whenComplete((set, error) -> {
            if (set != null) {
                keys = set;
                fetchedAtNanos = System.nanoTime();
                log.debug("Fetched {} keys from {}", set.getKeys().size(), url);
            } else {
                log.warn(
                        "Could not fetch the JWK Set from {}: {}; keeping {} known keys",
                        url,
                        reason(error),
                        keys.getKeys().size());
            }
            inflight.set(null);
            mine.complete(null);
        });
        return mine;
    }

    public long fetches() {
        return fetches.get();
    }

    private CompletionStage<JWKSet> fetch() {
        String target = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        if (url.getRawQuery() != null) {
            target += "?" + url.getRawQuery();
        }
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, target)
                .header("accept", "application/jwk-set+json, application/json")
                .build();
        Endpoint endpoint = Endpoint.of(url.getHost(), url.getPort() < 0 ? 80 : url.getPort());
        try {
            return client().send(endpoint, request, timeouts).thenCompose(this::read);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletionStage<JWKSet> read(HttpResponse response) {
        return response.body().aggregate(maxSize).thenApply(body -> {
            if (response.status().code() != 200) {
                throw new IllegalStateException("status " + response.status().code());
            }
            try {
                return JWKSet.parse(body.toStringUtf8()).toPublicJWKSet();
            } catch (ParseException e) {
                throw new IllegalStateException("not a JWK Set: " + e.getMessage(), e);
            }
        });
    }

    private HttpClient client() {
        if (configuredClient != null) {
            return configuredClient;
        }
        HttpClient client = ownClient;
        if (client == null) {
            synchronized (this) {
                client = ownClient;
                if (client == null) {
                    client = HttpClient.ofDefault();
                    ownClient = client;
                }
            }
        }
        return client;
    }

    private static JWK find(JWKSet set, String keyId) {
        if (keyId == null) {
            List<JWK> all = set.getKeys();
            return all.size() == 1 ? all.get(0) : null;
        }
        return set.getKeyByKeyId(keyId);
    }

    private static String reason(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getMessage() == null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    @Override
    public String toString() {
        return url == null ? "fixed keys" : url.toString();
    }
}

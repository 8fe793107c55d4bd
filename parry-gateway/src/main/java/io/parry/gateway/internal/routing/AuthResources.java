package io.parry.gateway.internal.routing;

import io.parry.auth.JwksSource;
import io.parry.client.HttpClient;
import io.parry.gateway.internal.config.AuthConfig;
import io.parry.gateway.internal.config.AuthFailureLimitConfig;
import io.parry.ratelimit.AuthFailureLimit;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the gateway's authentication filters share across routes and reloads: one {@link JwksSource}
 * per key-set URL and refresh settings, so that routes of one issuer fetch its keys once and a reload
 * keeps the keys it knows, and the HTTP client that fetches them, closed with the gateway; one {@link
 * AuthFailureLimit} per {@code failureLimit} setting, so that a client cannot spread its guesses over
 * routes and a reload keeps its failures counted.
 */
public final class AuthResources implements AutoCloseable {
    private final Map<Key, JwksSource> sources = new ConcurrentHashMap<>();
    private final Map<AuthFailureLimitConfig, AuthFailureLimit> failures = new ConcurrentHashMap<>();
    private volatile HttpClient client;

    /** The key set of this route's settings, made on first use. */
    JwksSource keys(AuthConfig.Jwt jwt) {
        Key key = new Key(jwt.jwksUrl(), jwt.refreshInterval(), jwt.minRefreshInterval());
        return sources.computeIfAbsent(key, k -> JwksSource.builder(k.url())
                .client(client())
                .refreshInterval(k.refreshInterval())
                .minRefreshInterval(k.minRefreshInterval())
                .build());
    }

    /** The limit on authentication failures of these settings, made on first use. */
    AuthFailureLimit failures(AuthFailureLimitConfig config) {
        return failures.computeIfAbsent(config, AuthFailureLimitConfig::toLimit);
    }

    private HttpClient client() {
        HttpClient current = client;
        if (current == null) {
            synchronized (this) {
                current = client;
                if (current == null) {
                    current = HttpClient.ofDefault();
                    client = current;
                }
            }
        }
        return current;
    }

    @Override
    public void close() {
        HttpClient current = client;
        if (current != null) {
            current.close();
        }
    }

    private record Key(URI url, Duration refreshInterval, Duration minRefreshInterval) {}
}

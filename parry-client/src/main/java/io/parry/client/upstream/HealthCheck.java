package io.parry.client.upstream;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.time.Duration;
import java.util.Arrays;

/**
 * Active health checks: every {@code interval} each endpoint gets {@code GET <path>} with {@code
 * User-Agent: parry-health-check}. A response with a status from 200 to 399 passes; another status,
 * a failure or no response within {@code timeout} fails. An endpoint starts passing, stops after
 * {@code unhealthyThreshold} failures in a row, and passes again after {@code healthyThreshold}
 * passes in a row. One endpoint never has two checks in flight: a tick that finds the previous check
 * still waiting skips that endpoint.
 *
 * <p>Defaults: interval 5 s, timeout 2 s, healthy threshold 2, unhealthy threshold 3.
 *
 * <pre>{@code
 * HealthCheck check = HealthCheck.builder("/health").interval(Duration.ofSeconds(2)).build();
 * }</pre>
 */
public final class HealthCheck {
    private final String path;
    private final Duration interval;
    private final Duration timeout;
    private final int healthyThreshold;
    private final int unhealthyThreshold;

    private HealthCheck(Builder builder) {
        this.path = builder.path;
        this.interval = builder.interval;
        this.timeout = builder.timeout;
        this.healthyThreshold = builder.healthyThreshold;
        this.unhealthyThreshold = builder.unhealthyThreshold;
    }

    /** A builder for checks of this origin-form path, such as {@code /health}, with the defaults. */
    public static Builder builder(String path) {
        return new Builder(requireNonNull(path, "path"));
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(path)
                .interval(interval)
                .timeout(timeout)
                .healthyThreshold(healthyThreshold)
                .unhealthyThreshold(unhealthyThreshold);
    }

    /** The path each check requests, with its query if any. */
    public String path() {
        return path;
    }

    /** The time from the end of one round of checks to the start of the next. */
    public Duration interval() {
        return interval;
    }

    /** How long a check waits for the response headers before it fails. */
    public Duration timeout() {
        return timeout;
    }

    /** The passes in a row that make a failing endpoint pass again. */
    public int healthyThreshold() {
        return healthyThreshold;
    }

    /** The failures in a row that make a passing endpoint fail. */
    public int unhealthyThreshold() {
        return unhealthyThreshold;
    }

    @Override
    public String toString() {
        return "HealthCheck{path=" + path + ", interval=" + interval + ", timeout=" + timeout + ", healthyThreshold="
                + healthyThreshold + ", unhealthyThreshold=" + unhealthyThreshold + "}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HealthCheck that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {path, interval, timeout, healthyThreshold, unhealthyThreshold};
    }

    /** Builds a {@link HealthCheck}; not thread-safe. */
    public static final class Builder {
        private final String path;
        private Duration interval = Duration.ofSeconds(5);
        private Duration timeout = Duration.ofSeconds(2);
        private int healthyThreshold = 2;
        private int unhealthyThreshold = 3;

        private Builder(String path) {
            this.path = path;
        }

        /** Sets the time between rounds of checks (default 5 s). */
        public Builder interval(Duration interval) {
            this.interval = requireNonNull(interval, "interval");
            return this;
        }

        /** Sets how long a check waits for the response headers (default 2 s). */
        public Builder timeout(Duration timeout) {
            this.timeout = requireNonNull(timeout, "timeout");
            return this;
        }

        /** Sets the passes in a row that make a failing endpoint pass again (default 2). */
        public Builder healthyThreshold(int healthyThreshold) {
            this.healthyThreshold = healthyThreshold;
            return this;
        }

        /** Sets the failures in a row that make a passing endpoint fail (default 3). */
        public Builder unhealthyThreshold(int unhealthyThreshold) {
            this.unhealthyThreshold = unhealthyThreshold;
            return this;
        }

        /**
         * The settings.
         *
         * @throws IllegalArgumentException if the path does not start with {@code /} or a value is
         *     out of range
         */
        public HealthCheck build() {
            requireOriginForm(path);
            positive("interval", interval);
            positive("timeout", timeout);
            if (healthyThreshold < 1) {
                throw new IllegalArgumentException("healthyThreshold: " + healthyThreshold + " (expected: > 0)");
            }
            if (unhealthyThreshold < 1) {
                throw new IllegalArgumentException("unhealthyThreshold: " + unhealthyThreshold + " (expected: > 0)");
            }
            return new HealthCheck(this);
        }

        private static void requireOriginForm(String path) {
            String expected = "path: " + path + " (expected: an origin-form path such as /health)";
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException(expected);
            }
            try {
                HttpRequest.of(HttpMethod.GET, path);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(expected, e);
            }
        }

        private static void positive(String name, Duration value) {
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
            }
        }
    }
}

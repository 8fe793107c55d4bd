package io.parry.server.health;

import static java.util.Objects.requireNonNull;

import java.util.Objects;
import java.util.Optional;

/** The outcome of one {@link HealthCheck}: up or down, with an optional detail for people. Immutable. */
public final class HealthStatus {
    private static final HealthStatus UP = new HealthStatus(true, null);

    private final boolean up;
    private final String detail;

    private HealthStatus(boolean up, String detail) {
        this.up = up;
        this.detail = detail;
    }

    /** Up, with no detail. */
    public static HealthStatus up() {
        return UP;
    }

    /** Up, with a detail such as {@code "3 of 4 replicas"}. */
    public static HealthStatus up(String detail) {
        return new HealthStatus(true, requireNonNull(detail, "detail"));
    }

    /** Down, with a detail that says why, such as {@code "connection refused"}. */
    public static HealthStatus down(String detail) {
        return new HealthStatus(false, requireNonNull(detail, "detail"));
    }

    /** Whether the check passed. */
    public boolean isUp() {
        return up;
    }

    /** The detail, if one was given. */
    public Optional<String> detail() {
        return Optional.ofNullable(detail);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HealthStatus)) {
            return false;
        }
        HealthStatus other = (HealthStatus) o;
        return up == other.up && Objects.equals(detail, other.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(up, detail);
    }

    /** {@code UP} or {@code DOWN}, with the detail after a colon. */
    @Override
    public String toString() {
        return (up ? "UP" : "DOWN") + (detail == null ? "" : ": " + detail);
    }
}

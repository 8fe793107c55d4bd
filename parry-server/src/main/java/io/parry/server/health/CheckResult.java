package io.parry.server.health;

import java.time.Duration;

/** One check's part of a {@link HealthReport}: its name, its status and how long it took. Immutable. */
public final class CheckResult {
    private final String name;
    private final HealthStatus status;
    private final Duration duration;

    CheckResult(String name, HealthStatus status, Duration duration) {
        this.name = name;
        this.status = status;
        this.duration = duration;
    }

    /** The name the check was registered under. */
    public String name() {
        return name;
    }

    /** The check's status; down when it failed or timed out. */
    public HealthStatus status() {
        return status;
    }

    /** How long the check took, or until it timed out. */
    public Duration duration() {
        return duration;
    }

    @Override
    public String toString() {
        return name + " " + status + " in " + duration.toMillis() + " ms";
    }
}

package io.parry.server.health;

import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.server.internal.JsonText;
import java.util.List;

/** The outcome of one round of liveness or readiness checks: up when every check is up. Immutable. */
public final class HealthReport {
    private final List<CheckResult> checks;
    private final boolean up;

    HealthReport(List<CheckResult> checks) {
        this.checks = List.copyOf(checks);
        this.up = this.checks.stream().allMatch(check -> check.status().isUp());
    }

    /** Whether every check is up; true when there are no checks. */
    public boolean isUp() {
        return up;
    }

    /** Each check's result, in the order the checks were registered. */
    public List<CheckResult> checks() {
        return checks;
    }

    /**
     * The report as a small JSON document, for example
     * {@code {"status":"DOWN","checks":{"db":{"status":"DOWN","detail":"timed out after 2000 ms","durationMs":2001.234}}}}.
     */
    public String toJson() {
        StringBuilder json = new StringBuilder(64 + 64 * checks.size());
        json.append("{\"status\":\"").append(up ? "UP" : "DOWN").append("\",\"checks\":{");
        for (int i = 0; i < checks.size(); i++) {
            CheckResult check = checks.get(i);
            if (i > 0) {
                json.append(',');
            }
            JsonText.appendString(json, check.name());
            json.append(":{\"status\":\"")
                    .append(check.status().isUp() ? "UP" : "DOWN")
                    .append('"');
            if (check.status().detail().isPresent()) {
                json.append(",\"detail\":");
                JsonText.appendString(json, check.status().detail().get());
            }
            json.append(",\"durationMs\":");
            JsonText.appendMillis(json, check.duration().toNanos());
            json.append('}');
        }
        return json.append("}}").toString();
    }

    /** The report as an HTTP response: 200 when up, else 503, with {@link #toJson()} as the body, not to be cached. */
    public HttpResponse toResponse() {
        return HttpResponse.of(
                        up ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE, MediaType.JSON, HttpData.ofUtf8(toJson()))
                .withHeader("cache-control", "no-store");
    }

    @Override
    public String toString() {
        return "HealthReport(" + (up ? "UP" : "DOWN") + ", " + checks + ")";
    }
}

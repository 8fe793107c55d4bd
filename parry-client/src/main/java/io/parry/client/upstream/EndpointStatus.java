package io.parry.client.upstream;

import static java.util.Objects.requireNonNull;

import io.parry.client.Endpoint;

/**
 * A snapshot of one endpoint of an {@link Upstream}, for the admin API and metrics.
 *
 * @param endpoint the endpoint
 * @param healthy whether calls may go to it now: not ejected and its health check passing
 * @param ejected whether passive outlier detection has ejected it
 * @param healthCheckPassing whether its active health check passes; {@code true} without health checks
 * @param inFlight the calls started and not yet finished
 * @param consecutiveFailures the calls that failed in a row since the last success or ejection
 */
public record EndpointStatus(
        Endpoint endpoint,
        boolean healthy,
        boolean ejected,
        boolean healthCheckPassing,
        int inFlight,
        int consecutiveFailures) {

    /** A snapshot; the endpoint must not be null. */
    public EndpointStatus {
        requireNonNull(endpoint, "endpoint");
    }
}

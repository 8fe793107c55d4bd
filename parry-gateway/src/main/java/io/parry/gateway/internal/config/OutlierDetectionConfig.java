package io.parry.gateway.internal.config;

import io.parry.client.upstream.OutlierDetection;
import java.time.Duration;

/**
 * An upstream group's passive outlier detection (YAML {@code outlierDetection}, or {@code off}), as
 * in {@link OutlierDetection}.
 *
 * @param enabled false after {@code outlierDetection: off}
 * @param consecutiveFailures failures in a row that eject an endpoint (default 5)
 * @param ejectionTime the first ejection's length (default 30 s)
 * @param maxEjectionTime the longest ejection (default 300 s)
 * @param maxEjectionPercent the most endpoints, in percent, ejected at once (default 50)
 */
public record OutlierDetectionConfig(
        boolean enabled,
        int consecutiveFailures,
        Duration ejectionTime,
        Duration maxEjectionTime,
        int maxEjectionPercent) {
    /** The defaults, those of {@link OutlierDetection#ofDefault()}. */
    public static final OutlierDetectionConfig DEFAULT = new OutlierDetectionConfig(
            true,
            OutlierDetection.ofDefault().consecutiveFailures(),
            OutlierDetection.ofDefault().ejectionTime(),
            OutlierDetection.ofDefault().maxEjectionTime(),
            OutlierDetection.ofDefault().maxEjectionPercent());

    /** No outlier detection. */
    public static final OutlierDetectionConfig OFF = new OutlierDetectionConfig(
            false, DEFAULT.consecutiveFailures, DEFAULT.ejectionTime, DEFAULT.maxEjectionTime, 0);

    /** These settings as client options. */
    public OutlierDetection toOptions() {
        if (!enabled) {
            return OutlierDetection.disabled();
        }
        return OutlierDetection.builder()
                .consecutiveFailures(consecutiveFailures)
                .ejectionTime(ejectionTime)
                .maxEjectionTime(maxEjectionTime)
                .maxEjectionPercent(maxEjectionPercent)
                .build();
    }
}

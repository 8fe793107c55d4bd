package io.parry.gateway.internal.config;

/**
 * Where the gateway's metrics go (YAML {@code metrics}); with neither registry nothing is measured.
 *
 * @param prometheus whether the admin listener serves a Prometheus scrape at {@code /admin/metrics}
 *     (default true)
 * @param jmx whether every meter is also an MBean of the platform MBean server (default false)
 */
public record MetricsConfig(boolean prometheus, boolean jmx) {
    /** The defaults: Prometheus on, JMX off. */
    public static final MetricsConfig DEFAULT = new MetricsConfig(true, false);

    /** No metrics ({@code metrics: off}). */
    public static final MetricsConfig OFF = new MetricsConfig(false, false);

    /** Whether any registry is on. */
    public boolean enabled() {
        return prometheus || jmx;
    }
}

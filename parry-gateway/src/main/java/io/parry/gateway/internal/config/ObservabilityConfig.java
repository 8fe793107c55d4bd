package io.parry.gateway.internal.config;

/**
 * How the gateway reports what it does (YAML {@code accessLog}, {@code metrics} and {@code tracing}).
 * Read at start only: a reload that changes it is reported and waits for the next restart.
 *
 * @param accessLog the access log's format, or none (default JSON lines)
 * @param metrics the metric registries (default Prometheus)
 * @param tracing whether each request gets a trace context with its ids in the SLF4J MDC and the
 *     access log (default true)
 */
public record ObservabilityConfig(AccessLogKind accessLog, MetricsConfig metrics, boolean tracing) {
    /** The defaults. */
    public static final ObservabilityConfig DEFAULT =
            new ObservabilityConfig(AccessLogKind.JSON, MetricsConfig.DEFAULT, true);
}

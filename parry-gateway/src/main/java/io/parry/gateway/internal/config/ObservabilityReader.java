package io.parry.gateway.internal.config;

import java.util.List;

/** Reads the top-level {@code accessLog} and {@code metrics} settings. */
final class ObservabilityReader {
    static final List<String> ACCESS_LOG_NAMES = List.of("json", "combined", "off");
    static final List<String> METRICS_KEYS = List.of("prometheus", "jmx");

    private ObservabilityReader() {}

    /** The access log's format, JSON lines by default. */
    static AccessLogKind accessLog(Section top) {
        if (top.isOff("accessLog")) {
            return AccessLogKind.OFF;
        }
        String expected = "one of " + String.join(", ", ACCESS_LOG_NAMES);
        String text = top.text("accessLog", expected);
        if (text == null) {
            return AccessLogKind.JSON;
        }
        if (text.equals("json")) {
            return AccessLogKind.JSON;
        }
        if (text.equals("combined")) {
            return AccessLogKind.COMBINED;
        }
        String closest = ClosestName.of(text, ACCESS_LOG_NAMES);
        top.invalid(
                "accessLog",
                "'accessLog' must be " + expected + ", got '" + text + "'"
                        + (closest == null ? "" : ", did you mean '" + closest + "'?"));
        return AccessLogKind.JSON;
    }

    /** The metric registries, Prometheus by default. */
    static MetricsConfig metrics(Section top) {
        if (top.isOff("metrics")) {
            return MetricsConfig.OFF;
        }
        Section section = top.section("metrics", "'metrics'", METRICS_KEYS);
        if (section == null) {
            return MetricsConfig.DEFAULT;
        }
        MetricsConfig d = MetricsConfig.DEFAULT;
        return new MetricsConfig(section.bool("prometheus", d.prometheus()), section.bool("jmx", d.jmx()));
    }
}

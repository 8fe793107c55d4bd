package io.parry.gateway.internal.config;

import java.util.List;

/** Reads the top-level {@code accessLog}, {@code metrics} and {@code tracing} settings. */
final class ObservabilityReader {
    private static final List<String> ACCESS_LOG_NAMES = List.of("json", "combined", "off");
    private static final List<String> METRICS_KEYS = List.of("prometheus", "jmx");

    private ObservabilityReader() {}

    static ObservabilityConfig read(Section top) {
        ObservabilityConfig d = ObservabilityConfig.DEFAULT;
        return new ObservabilityConfig(accessLog(top), metrics(top), top.bool("tracing", d.tracing()));
    }

    private static AccessLogKind accessLog(Section top) {
        if (top.isOff("accessLog")) {
            return AccessLogKind.OFF;
        }
        String expected = "one of " + String.join(", ", ACCESS_LOG_NAMES);
        String text = top.text("accessLog", expected);
        if (text == null) {
            return ObservabilityConfig.DEFAULT.accessLog();
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
        return ObservabilityConfig.DEFAULT.accessLog();
    }

    private static MetricsConfig metrics(Section top) {
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

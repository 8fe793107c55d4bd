package io.parry.gateway.internal.config;

import io.parry.server.OverloadOptions;
import io.parry.server.Priority;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Reads the top-level {@code overload} section into {@link OverloadOptions}, and a route's {@code
 * priority}. Without the section nothing is shed.
 */
final class OverloadReader {
    static final String KEY = "overload";
    static final List<String> KEYS = List.of("eventLoopLag", "maxInFlight", "heap", "directMemory", "retryAfter");
    static final List<String> PRIORITY_NAMES = List.of("critical", "normal", "sheddable", "exempt");
    private static final String PERCENT = "a percentage above 0 and at most 100, such as 90%";

    private OverloadReader() {}

    /** The file's overload thresholds; {@link OverloadOptions#off()} without the section. */
    static OverloadOptions read(Section top) {
        Section section = top.section(KEY, "'overload'", KEYS);
        if (section == null) {
            return OverloadOptions.off();
        }
        int errorsBefore = section.errors().count();
        OverloadOptions.Builder options = OverloadOptions.builder()
                .eventLoopLag(section.duration("eventLoopLag", Duration.ZERO))
                .maxInFlight(section.integer("maxInFlight", 1, Integer.MAX_VALUE, 0))
                .retryAfter(section.positiveDuration(
                        "retryAfter", OverloadOptions.off().retryAfter()));
        double heap = percentage(section, "heap", PERCENT);
        if (heap > 0) {
            options.heap(heap);
        }
        directMemory(section, options);
        if (errorsBefore == section.errors().count() && !options.build().isEnabled()) {
            section.error(
                    section.location(),
                    "'overload' turns no signal on (expected at least one of eventLoopLag, maxInFlight, heap,"
                            + " directMemory)");
        }
        return section.build(errorsBefore, options::build, OverloadOptions.off());
    }

    /** A route's priority: how early it is shed; {@code normal} by default. */
    static Priority priority(Section route) {
        String text = route.text("priority", "one of " + String.join(", ", PRIORITY_NAMES));
        if (text == null) {
            return Priority.NORMAL;
        }
        if (!PRIORITY_NAMES.contains(text)) {
            String closest = ClosestName.of(text, PRIORITY_NAMES);
            route.invalid(
                    "priority",
                    "'priority' must be one of " + String.join(", ", PRIORITY_NAMES) + ", got '" + text + "'"
                            + (closest == null ? "" : ", did you mean '" + closest + "'?"));
            return Priority.NORMAL;
        }
        return Priority.valueOf(text.toUpperCase(Locale.ROOT));
    }

    /** A size in bytes, or a percentage of the JVM's maximum direct memory. */
    private static void directMemory(Section section, OverloadOptions.Builder options) {
        String text = section.text("directMemory", "a size such as 512MiB, or " + PERCENT);
        if (text == null) {
            return;
        }
        if (text.endsWith("%")) {
            double fraction = percentage(section, "directMemory", "a size such as 512MiB, or " + PERCENT);
            if (fraction > 0) {
                options.directMemoryFraction(fraction);
            }
            return;
        }
        options.directMemory(section.size("directMemory", 1, Long.MAX_VALUE, 0));
    }

    /** A percentage as a fraction, or 0 after an error or when absent. */
    private static double percentage(Section section, String key, String expected) {
        String text = section.text(key, expected);
        if (text == null) {
            return 0;
        }
        try {
            if (text.endsWith("%")) {
                double percent =
                        Double.parseDouble(text.substring(0, text.length() - 1).trim());
                if (percent > 0 && percent <= 100) {
                    return percent / 100;
                }
            }
        } catch (NumberFormatException e) {
            // Reported below with what is expected.
        }
        section.wrongType(key, expected, section.node(key));
        return 0;
    }
}

package io.parry.gateway.internal.config;

import io.parry.server.PathNormalization;
import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a listener's {@code pathNormalization}: {@code escapedSlashes} and {@code pathParameters}, each
 * the lower-case name of its {@link PathNormalization} action, such as {@code reject_request}.
 */
final class PathNormalizationReader {
    static final String KEY = "pathNormalization";
    static final List<String> KEYS = List.of("escapedSlashes", "pathParameters");

    private PathNormalizationReader() {}

    /** The listener's normalisation; the defaults when the section is absent, and after an error. */
    static PathNormalization read(Section listener) {
        Section section = listener.section(KEY, listener.context() + " " + KEY, KEYS);
        if (section == null) {
            return PathNormalization.ofDefault();
        }
        PathNormalization defaults = PathNormalization.ofDefault();
        return PathNormalization.builder()
                .escapedSlashes(action(section, "escapedSlashes", EscapedSlashAction.class, defaults.escapedSlashes()))
                .pathParameters(action(section, "pathParameters", PathParameterAction.class, defaults.pathParameters()))
                .build();
    }

    private static <E extends Enum<E>> E action(Section section, String key, Class<E> type, E defaultValue) {
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            names.add(constant.name().toLowerCase(Locale.ROOT));
        }
        String expected = "one of " + String.join(", ", names);
        String text = section.text(key, expected);
        if (text == null) {
            return defaultValue;
        }
        if (names.contains(text)) {
            return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
        }
        String closest = ClosestName.of(text, names);
        section.invalid(
                key,
                "'" + key + "' must be " + expected + ", got '" + text + "'"
                        + (closest == null ? "" : ", did you mean '" + closest + "'?"));
        return defaultValue;
    }
}

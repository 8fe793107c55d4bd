package io.parry.gateway.internal.config;

import io.parry.http.HttpHeaders;

/** Checks header names and values with the rules {@link HttpHeaders} enforces, so that a bad one fails at load, not per request. */
final class HeaderSyntax {
    private HeaderSyntax() {}

    static boolean isName(String name) {
        try {
            HttpHeaders.builder().add(name, "x");
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static boolean isValue(String value) {
        try {
            HttpHeaders.builder().add("x", value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Errors for each name that is not a token and each value with a control character, in the mapping under {@code key}. */
    static void check(Section section, String key) {
        if (!(section.node(key) instanceof YamlMap)) {
            return;
        }
        for (YamlEntry field : ((YamlMap) section.node(key)).entries()) {
            checkName(section, key, field.key(), field.keyLocation());
            YamlNode value = field.value();
            if (value instanceof YamlScalar
                    && !((YamlScalar) value).isNull()
                    && !isValue(((YamlScalar) value).text())) {
                section.error(
                        value.location(),
                        "the value of header '" + field.key() + "' in '" + key
                                + "' holds a control character such as CR or LF, which a header value cannot");
            }
        }
    }

    static void checkName(Section section, String key, String name, Location at) {
        if (!isName(name)) {
            section.error(
                    at,
                    "'" + name + "' in '" + key
                            + "' is not a valid header name (expected a token such as X-Request-Id)");
        }
    }
}

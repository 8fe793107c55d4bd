package io.parry.gateway.internal.config;

import java.util.List;

/** A configuration file that cannot be used; the message lists every error found, one per line. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigError> errors;

    /** An exception for these errors; there is at least one. */
    public ConfigException(List<ConfigError> errors) {
        super(message(errors));
        this.errors = List.copyOf(errors);
    }

    /** Every error, in file order. */
    public List<ConfigError> errors() {
        return errors;
    }

    private static String message(List<ConfigError> errors) {
        StringBuilder text = new StringBuilder();
        text.append(errors.size() == 1 ? "1 error" : errors.size() + " errors").append(" in the configuration:");
        for (ConfigError error : errors) {
            text.append('\n').append(error);
        }
        return text.toString();
    }
}
